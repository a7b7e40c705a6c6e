package io.fleetscope.flink.ckpt;

import static io.fleetscope.flink.ckpt.CkptFixtures.TB;
import static io.fleetscope.flink.ckpt.CkptFixtures.done;
import static io.fleetscope.flink.ckpt.CkptFixtures.started;
import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.flink.io.CollectedOutput;
import io.fleetscope.flink.io.OutputOrdering;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.JsonLines;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * Live (streaming) runs in which fleet.ckpt.v1 reaches the analytics behind the XIDs of
 * fleet.gpu.xid.v1, which move the checkpoint SLO stage's watermark while the checkpoint stream is
 * idle between its events ({@link LaggingCheckpointSource}).
 */
class CheckpointStreamLagITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults().with("pipeline", "parallelism", 1);

  /**
   * 4 nodes x 8 GPUs, job jK on node n(K+1); each job writes a healthy 30 s checkpoint every 2 min,
   * the jobs 30 s apart, for 40 min; an interrupting XID every 5 s.
   */
  private static List<SpecificRecord> fourJobs() {
    List<SpecificRecord> in = topology(4);
    for (int k = 0; k < 4; k++) {
      for (int i = 0; i < 20; i++) {
        double start = k * 30 + i * 120;
        in.add(onNode(started("j" + k, i, start, TB), k));
        in.add(onNode(done("j" + k, i, start, 30, TB), k));
      }
    }
    // A bounded streaming run ends with every source's end-of-input; a tick the idle checkpoint
    // stage still holds then can reach the SLO stage after the XIDs' final watermark, and is lost.
    // One more checkpoint event (of job "tail", on n1) releases the last real one well before.
    in.add(onNode(done("tail", 0, 2_700, 10, TB), 0));
    in.addAll(xids(3_200));
    return in;
  }

  private static List<CheckpointSlo> fourJobsSlos(List<JsonLines.Line> out) {
    return slos(out).stream().filter(s -> !s.getJob().equals("tail")).toList();
  }

  private static List<SpecificRecord> topology(int nodes) {
    List<SpecificRecord> in = new ArrayList<>();
    for (int n = 0; n < nodes; n++) {
      in.add(Fleet.node("n" + (n + 1), "r1", 8, 0, t(-60)));
      in.add(JobAllocations.newBuilder().setTs(t(-60)).setCluster("c1").setNode("n" + (n + 1)).setAgentSeq(1)
          .setAllocations(List.of(GpuAllocation.newBuilder().setJob(nodes == 1 ? "llm" : "j" + n)
              .setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build()))
          .build());
    }
    return in;
  }

  private static CheckpointEvent onNode(CheckpointEvent e, int k) {
    return CheckpointEvent.newBuilder(e).setNode("n" + (k + 1)).build();
  }

  /** XID 79 (fallen off the bus: an interruption) every 5 s from 0 s to {@code untilS}, nodes in turn. */
  private static List<SpecificRecord> xids(int untilS) {
    List<SpecificRecord> in = new ArrayList<>();
    for (int s = 0, i = 0; s <= untilS; s += 5, i++) {
      in.add(Fleet.xid("n" + (i % 4 + 1), 0, 79, t(s), 1000 + i));
    }
    return in;
  }

  private List<JsonLines.Line> live(List<SpecificRecord> in, long lagMs, AnalyticsConfig c) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(c.pipeline().parallelism(), conf);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.setBufferTimeout(0);
    CollectedOutput sink = new CollectedOutput();
    new FleetAnalytics(new LaggingCheckpointSource(in, lagMs, 4000, c.pipeline().outOfOrdernessMs()), sink, c,
        List.of(new CheckpointSloAnalytic()), Runs.CLOCK).build(env);
    return OutputOrdering.lines(sink.run(env, "ckpt-lag"));
  }

  private static List<CheckpointSlo> slos(List<JsonLines.Line> out) {
    return out.stream().filter(l -> l.value() instanceof CheckpointSlo).map(l -> (CheckpointSlo) l.value()).toList();
  }

  @Test
  void healthyCheckpointsLaggingTheXidsByAMinuteAreNeverOverdue() throws Exception {
    List<JsonLines.Line> out = live(fourJobs(), 60_000, cfg);
    assertThat(Runs.anomalies(out)).extracting(Runs::brief).isEmpty();
    assertThat(fourJobsSlos(out)).hasSize(80).allSatisfy(s -> assertThat(s.getCompliant()).isTrue());
  }

  @Test
  void healthyCheckpointsLaggingTheXidsByFiveMinutesAreNeverOverdue() throws Exception {
    List<JsonLines.Line> out = live(fourJobs(), 300_000, cfg);
    assertThat(Runs.anomalies(out)).extracting(Runs::brief).isEmpty();
    assertThat(fourJobsSlos(out)).hasSize(80).allSatisfy(s -> assertThat(s.getCompliant()).isTrue());
  }

  @Test
  void withoutTheGraceTheXidsTimeMakesTheLaggingCheckpointsOverdue() throws Exception {
    // the control: judged on the XIDs' time alone (no grace), as the watermark did before, the
    // same healthy checkpoints look overdue; the runs above are not quiet by accident
    List<JsonLines.Line> out = live(fourJobs(), 60_000, cfg.with("ckpt", "overdue_grace_s", 0));
    assertThat(Runs.anomalies(out)).filteredOn(a -> a.getStatus().equals("firing"))
        .extracting(a -> a.getLabels().get("alertname")).isNotEmpty().containsOnly("CheckpointSlow");
  }

  /** One job on 4 nodes, a 30 s checkpoint every 10 min; step 5 (started at 3,000 s) never finishes. */
  private static List<SpecificRecord> onlyJobHangs() {
    List<SpecificRecord> in = topology(4);
    for (SpecificRecord r : new ArrayList<>(in)) {
      if (r instanceof JobAllocations a) {
        in.set(in.indexOf(r), JobAllocations.newBuilder(a).setAllocations(List.of(GpuAllocation.newBuilder()
            .setJob("llm").setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build())).build());
      }
    }
    for (int i = 0; i <= 5; i++) {
      in.add(started("llm", i, i * 600, TB));
      if (i < 5) {
        in.add(done("llm", i, i * 600, 30, TB));
      }
    }
    in.addAll(xids(3_600));
    return in;
  }

  @Test
  void aClusterWhoseOnlyJobHangsGetsCheckpointSlowAfterTheGraceInBatchAndLive() throws Exception {
    // deadline 3,060 s; check time 3,079.999 s; nothing more on fleet.ckpt.v1, so the XIDs' time
    // decides at the check time + 300 s
    String expected = "CheckpointSlow firing {alertname=CheckpointSlow, cluster=c1, job=llm, severity=warning, tier=lustre} ts="
        + (t(3380) - 1);
    List<JsonLines.Line> batch = Runs.run(onlyJobHangs(), cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH);
    List<JsonLines.Line> live = live(onlyJobHangs(), 60_000, cfg);
    for (List<JsonLines.Line> out : List.of(batch, live)) {
      assertThat(Runs.anomalies(out)).extracting(Runs::brief).containsExactly(expected);
      Anomaly a = Runs.anomalies(out).get(0);
      assertThat(a.getTs() - t(3000)).as("within deadline + two ticks + grace").isLessThanOrEqualTo((60 + 20 + 300) * 1000L);
      assertThat(a.getAnnotations().get("description")).contains("after the 300 s grace");
      assertThat(slos(out)).hasSize(5).allSatisfy(s -> assertThat(s.getCompliant()).isTrue());
    }
  }
}
