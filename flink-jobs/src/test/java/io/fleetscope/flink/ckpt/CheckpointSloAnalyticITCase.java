package io.fleetscope.flink.ckpt;

import static io.fleetscope.flink.ckpt.CkptFixtures.TB;
import static io.fleetscope.flink.ckpt.CkptFixtures.done;
import static io.fleetscope.flink.ckpt.CkptFixtures.started;
import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.JsonLines;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

class CheckpointSloAnalyticITCase {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  /** 4 nodes x 8 GPUs, job "llm" on all 32; a 1 TB checkpoint every 10 min for 8 h, 30 s each. */
  private static List<SpecificRecord> scenario(boolean slowStep12, boolean xids) {
    List<SpecificRecord> in = new ArrayList<>();
    for (int n = 1; n <= 4; n++) {
      in.add(Fleet.node("n" + n, "r1", 8, 0, t(-60)));
      in.add(JobAllocations.newBuilder().setTs(t(-60)).setCluster("c1").setNode("n" + n).setAgentSeq(1)
          .setAllocations(List.of(GpuAllocation.newBuilder().setJob("llm").setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build()))
          .build());
    }
    for (int i = 0; i < 48; i++) {
      in.add(started("llm", i, i * 600, TB));
      in.add(done("llm", i, i * 600, slowStep12 && i == 12 ? 90 : 30, TB));
    }
    if (xids) {
      in.add(Fleet.xid("n1", 0, 79, t(3600), 1));
      in.add(Fleet.xid("n2", 1, 48, t(7200), 2));
      in.add(Fleet.xid("n2", 1, 79, t(7260), 3));   // same node within 10 min: same incident
      in.add(Fleet.xid("n3", 2, 13, t(9000), 4));   // an application error: not an interruption
      in.add(Fleet.xid("n3", 2, 94, t(10_800), 5));
    }
    return in;
  }

  @Test
  void hungCheckpointFiresBeforeItFinishes() throws Exception {
    List<SpecificRecord> in = new ArrayList<>(scenario(false, false));
    // step 20 (started at 12,000 s) hangs: its completion never comes
    in.removeIf(r -> r instanceof CheckpointEvent e && e.getStep() == 20 && e.getStatus().equals("completed"));
    List<JsonLines.Line> out = Runs.run(in, cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH);
    // deadline 12,060 s in the tick [12,060, 12,070): checked at the end of the next tick
    assertThat(Runs.anomalies(out)).extracting(Runs::brief).containsExactly(
        "CheckpointSlow firing {alertname=CheckpointSlow, cluster=c1, job=llm, severity=warning, tier=lustre} ts=" + (t(12_080) - 1),
        "CheckpointSlow resolved {alertname=CheckpointSlow, cluster=c1, job=llm, severity=warning, tier=lustre} ts=" + t(21 * 600 + 30));
    assertThat(slos(out)).hasSize(47);
  }

  /**
   * A checkpoint that started 30 s before a bounded input ends is not hung: no input reaches its
   * fallback time, only the end of input's final watermark does (the held-out `bench detect` runs'
   * false "slow job" on the healthy second job). An interrupting XID past that time, from another
   * node, is what the fallback is for, and it fires as of the fallback time.
   */
  @Test
  void aCheckpointStillRunningWhenTheInputEndsIsNotOverdueUnlessTheOtherInputsPassItsFallback() throws Exception {
    List<SpecificRecord> in = new ArrayList<>(scenario(false, false));
    in.add(started("llm", 48, 48 * 600, TB));
    in.add(Fleet.xid("n2", 1, 79, t(48 * 600 + 30), 1));
    assertThat(Runs.anomalies(Runs.run(in, cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH)))
        .as("the input ends 30 s after the start").isEmpty();

    // deadline 28,860 s, checked at 28,879.999 s, the fallback 300 s later
    in.add(Fleet.xid("n2", 1, 79, t(48 * 600 + 400), 2));
    assertThat(Runs.anomalies(Runs.run(in, cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH)))
        .extracting(Runs::brief).containsExactly(
            "CheckpointSlow firing {alertname=CheckpointSlow, cluster=c1, job=llm, severity=warning, tier=lustre} ts="
                + (t(48 * 600 + 380) - 1));
  }

  private static List<CheckpointSlo> slos(List<JsonLines.Line> out) {
    return out.stream().filter(l -> l.value() instanceof CheckpointSlo).map(l -> (CheckpointSlo) l.value())
        .sorted(Comparator.comparingLong(CheckpointSlo::getStep)).toList();
  }

  @Test
  void healthyJobIsCompliantWithTheConfiguredMtbfInterval() throws Exception {
    List<JsonLines.Line> out = Runs.run(scenario(false, false), cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH);
    assertThat(Runs.anomalies(out)).isEmpty();
    List<CheckpointSlo> s = slos(out);
    assertThat(s).hasSize(48).allSatisfy(x -> {
      assertThat(x.getCompliant()).isTrue();
      assertThat(x.getThroughputGbps()).isCloseTo(33.333333, within(1e-6));
      assertThat(x.getBurnRate1h()).isZero();
    });
    // no interruption seen: 50,000 h per GPU / 32 GPUs = 5,625,000 s; C = 30 s
    assertThat(s.get(47).getRecommendedIntervalS()).isCloseTo(YoungDaly.daly(30, 5_625_000), within(1e-3));
    assertThat(out).filteredOn(l -> l.topic().equals("fleet.ckpt.slo.v1")).hasSize(48);
  }

  @Test
  void slowCheckpointFiresSlowAndBothBurnRulesAndRecoveryResolvesThem() throws Exception {
    List<JsonLines.Line> out = Runs.run(scenario(true, false), cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH);
    assertThat(Runs.anomalies(out)).extracting(Runs::brief).containsExactlyInAnyOrder(
        // step 12 started at 7200 s; past its 60 s SLO it fires before it finishes (checked at the
        // end of the tick after the deadline's tick, 7279.999 s); the burn rules fire at its finish
        "CheckpointSlow firing {alertname=CheckpointSlow, cluster=c1, job=llm, severity=warning, tier=lustre} ts=" + (t(7280) - 1),
        "CheckpointSlow resolved {alertname=CheckpointSlow, cluster=c1, job=llm, severity=warning, tier=lustre} ts=" + t(13 * 600 + 30),
        "CheckpointSloBurn firing {alertname=CheckpointSloBurn, cluster=c1, job=llm, severity=critical, window=1h/5m} ts=" + t(12 * 600 + 90),
        "CheckpointSloBurn resolved {alertname=CheckpointSloBurn, cluster=c1, job=llm, severity=critical, window=1h/5m} ts=" + t(13 * 600 + 30),
        "CheckpointSloBurn firing {alertname=CheckpointSloBurn, cluster=c1, job=llm, severity=warning, window=6h/30m} ts=" + t(12 * 600 + 90),
        "CheckpointSloBurn resolved {alertname=CheckpointSloBurn, cluster=c1, job=llm, severity=warning, window=6h/30m} ts=" + t(16 * 600 + 30));
    CheckpointSlo bad = slos(out).get(12);
    assertThat(bad.getCompliant()).isFalse();
    assertThat(bad.getDurationS()).isEqualTo(90.0);
    assertThat(bad.getBurnRate5m()).isCloseTo(100.0, within(1e-6));
  }

  @Test
  void observedInterruptionsReplaceTheConfiguredMtbf() throws Exception {
    List<CheckpointSlo> s = slos(Runs.run(scenario(false, true), cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH));
    // before the third interruption (10,800 s) the configured MTBF holds
    CheckpointSlo before = s.get(17); // finishes at 10,230 s
    assertThat(before.getRecommendedIntervalS()).isCloseTo(YoungDaly.daly(30, 5_625_000), within(1e-3));
    // afterwards: 3 interruptions seen over (finish - first observation, the start at 0 s) on 32
    // GPUs; the job holds all 32, so its MTBF is the observed span / 3
    CheckpointSlo after = s.get(47);
    double span = (47 * 600 + 30);
    assertThat(after.getRecommendedIntervalS()).isCloseTo(YoungDaly.daly(30, span / 3), within(1e-3));
  }

  @Test
  void impossibleEventsGoToTheDeadLetterTopic() throws Exception {
    List<SpecificRecord> in = new ArrayList<>(scenario(false, false));
    in.add(CheckpointEvent.newBuilder(done("llm", 99, 100, 30, TB)).setFinishedTs(t(50)).build());
    in.add(CheckpointEvent.newBuilder(done("llm", 98, 100, 30, TB)).setStatus("exploded").build());
    List<JsonLines.Line> out = Runs.run(in, cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH);
    assertThat(out).filteredOn(l -> l.value() instanceof DeadLetter).extracting(l -> ((DeadLetter) l.value()).getReason())
        .anySatisfy(r -> assertThat(r).contains("before started_ts"))
        .anySatisfy(r -> assertThat(r).contains("unknown checkpoint status 'exploded'"));
    assertThat(slos(out)).hasSize(48);
  }

  @Test
  void liveStreamingRunGivesTheSameOutputAsBatch() throws Exception {
    List<SpecificRecord> in = scenario(true, true);
    List<String> batch = Runs.run(in, cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.BATCH).stream()
        .map(JsonLines::toJson).sorted().toList();
    List<String> live = Runs.run(Runs.jitter(in, 8, 3), cfg, List.of(new CheckpointSloAnalytic()), RuntimeExecutionMode.STREAMING)
        .stream().map(JsonLines::toJson).sorted().toList();
    assertThat(live).hasSize(54).isEqualTo(batch);
  }
}
