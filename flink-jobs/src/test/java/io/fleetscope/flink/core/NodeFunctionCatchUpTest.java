package io.fleetscope.flink.core;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * A node's backlog behind the watermark (its agent spooled through a broker outage while the other
 * nodes moved the watermark on): evaluated on the node's own clock, in its own time order, when it
 * is within pipeline.catch_up_ms; late, with the reason, beyond it or once its slice was evaluated.
 */
class NodeFunctionCatchUpTest {

  /** Per GPU, one line per tick: {@code gpu=<unit> end=<tick end s> [record ts s...]}; 10 s ticks. */
  static final class Recorder extends NodeAnalytic<GpuSample, Integer, String, Integer> {
    private static final long serialVersionUID = 1L;

    Recorder() {
      super(Topics.GPU, 10_000, Types.STRING, Set.of(GpuSample.class));
    }

    @Override
    protected Integer unitOf(GpuSample r) {
      return r.getGpu();
    }

    @Override
    protected void onTick(NodeAnalytic.UnitTick<Integer, String> tick, List<GpuSample> records, UnitState<Integer> state) {
      tick.emit("gpu=" + tick.unit() + " end=" + (tick.end() - t(0)) / 1000 + " "
          + records.stream().map(r -> (r.getTs() - t(0)) / 1000).toList());
    }
  }

  private Recorder recorder;

  private KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> harness(long catchUpMs)
      throws Exception {
    return harness(catchUpMs, Runs.CLOCK);
  }

  private KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> harness(long catchUpMs,
      io.fleetscope.flink.io.WallClock clock) throws Exception {
    AnalyticsConfig cfg = AnalyticsConfig.defaults().with("pipeline", "catch_up_ms", catchUpMs);
    NodeFunction node = new NodeFunction("node-gpu", cfg.pipeline(), clock);
    recorder = new Recorder();
    node.add(recorder);
    var h = new KeyedBroadcastOperatorTestHarness<>(
        new org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator<>(node, List.of(Topology.INVENTORY, Topology.JOBS)),
        NodeFunction::nodeKey, Types.STRING, 1, 1, 0);
    h.open();
    return h;
  }

  private List<String> ticks() {
    return calls(harnessNow);
  }

  private KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> harnessNow;

  private List<String> calls(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h) {
    var out = h.getSideOutput(recorder.output());
    return out == null ? List.of() : out.stream().map(StreamRecord::getValue).toList();
  }

  private static List<String> late(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h) {
    var l = h.getSideOutput(TickedKeyedFunction.LATE);
    return l == null ? List.of() : l.stream().map(StreamRecord::getValue).map(DeadLetter::getReason).map(String::valueOf).toList();
  }

  private static void sample(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h, long s)
      throws Exception {
    h.processElement(Fleet.gpu("n1", 0, t(s), s).build(), t(s));
  }

  private static void watermark(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h, long ms)
      throws Exception {
    h.processBroadcastWatermark(new Watermark(ms));
    h.processWatermark(ms);
  }

  @Test
  void aBacklogBehindTheWatermarkIsEvaluatedInTheNodesOwnOrder() throws Exception {
    try (var h = harness(300_000)) {
      harnessNow = h;
      for (long s = 0; s < 20; s += 2) {
        sample(h, s);
      }
      watermark(h, t(20) - 1); // the node's ticks to 20 s are evaluated on the watermark
      assertThat(ticks()).containsExactly("gpu=0 end=10 [0, 2, 4, 6, 8]", "gpu=0 end=20 [10, 12, 14, 16, 18]");
      watermark(h, t(120)); // the node is silent (its agent spools), the others move the watermark on
      assertThat(ticks()).hasSize(2);
      for (long s = 20; s < 80; s += 2) { // the backlog, in the agent's order, 100 s behind
        sample(h, s);
      }
      watermark(h, t(121)); // the next advance fires the timers of what the node's own clock passed
      // its clock (newest 78 s less the 5 s out-of-orderness) has passed its ticks to 70 s, each a tick of its own
      assertThat(ticks()).hasSize(7).endsWith("gpu=0 end=70 [60, 62, 64, 66, 68]");
      assertThat(ticks().get(2)).isEqualTo("gpu=0 end=30 [20, 22, 24, 26, 28]");
      var stamps = h.getSideOutput(recorder.output()).stream().map(StreamRecord::getTimestamp).toList();
      assertThat(stamps.get(6)).as("emitted at its own tick's time").isEqualTo(t(70) - 1);
      watermark(h, t(130)); // not yet the flush: catch_up_grace_ms (15 s) after the watermark of the backlog
      assertThat(ticks()).hasSize(7);
      watermark(h, t(136));
      assertThat(ticks()).hasSize(8).endsWith("gpu=0 end=80 [70, 72, 74, 76, 78]");
      assertThat(late(h)).isEmpty();
      sample(h, 75); // after its tick was evaluated: late, saying why
      assertThat(late(h)).singleElement().satisfies(r -> assertThat(r).startsWith("late: ts=" + t(75))
          .contains("analytic=Recorder").contains("slice ending " + t(80) + " was already evaluated"));
      sample(h, 137); // live again: on the watermark
      watermark(h, t(140));
      assertThat(ticks()).endsWith("gpu=0 end=140 [137]");
      assertThat(h.numEventTimeTimers()).isZero();
    }
  }

  @Test
  void aSliceTheWatermarkJumpedPastWhileItsNodeFellSilentWaitsForItsBacklog() throws Exception {
    // live: the wall clock is just ahead of the data
    try (var h = harness(300_000, io.fleetscope.flink.io.WallClock.fixed(t(75)))) {
      harnessNow = h;
      for (long s = 30; s < 36; s++) {
        sample(h, s);
      }
      watermark(h, t(34));
      // the broker is back: the other nodes' records come first and the watermark jumps 34 s
      watermark(h, t(68));
      assertThat(ticks()).as("the slice to 40 s is not evaluated with 30..35 alone").isEmpty();
      for (long s = 36; s < 74; s++) { // then this node's agent resends its spool
        sample(h, s);
      }
      watermark(h, t(69));
      assertThat(ticks()).containsExactly("gpu=0 end=40 [30, 31, 32, 33, 34, 35, 36, 37, 38, 39]",
          "gpu=0 end=50 [40, 41, 42, 43, 44, 45, 46, 47, 48, 49]");
      watermark(h, t(70)); // its records from 68 s came in time: their timer moves the node's clock on too
      assertThat(ticks()).hasSize(3).endsWith("gpu=0 end=60 [50, 51, 52, 53, 54, 55, 56, 57, 58, 59]");
      assertThat(late(h)).isEmpty();
      watermark(h, t(85));
      assertThat(ticks()).hasSize(5).endsWith("gpu=0 end=80 [70, 71, 72, 73]");
    }
  }

  @Test
  void aSecondOutageWhileTheNodeCatchesUpDoesNotCutItsBacklog() throws Exception {
    // bench chaos: the agent fault's outage, then the spool-full fault's outage a few seconds after
    // the broker came back, while the agent's first backlog was still being read
    try (var h = harness(300_000, io.fleetscope.flink.io.WallClock.fixed(t(110)))) {
      harnessNow = h;
      for (long s = 30; s < 34; s++) {
        sample(h, s);
      }
      watermark(h, t(33));
      watermark(h, t(68)); // the broker is back: the other nodes first, the watermark jumps
      for (long s = 34; s < 56; s++) { // the first part of this node's backlog
        sample(h, s);
      }
      watermark(h, t(69));
      assertThat(ticks()).containsExactly("gpu=0 end=40 [30, 31, 32, 33, 34, 35, 36, 37, 38, 39]",
          "gpu=0 end=50 [40, 41, 42, 43, 44, 45, 46, 47, 48, 49]");
      // the broker is killed again; when it is back the other nodes' 30 s come at once
      watermark(h, t(100));
      assertThat(ticks()).as("the slice to 60 s waits for the rest of the backlog").hasSize(2);
      for (long s = 56; s < 100; s++) { // the rest of this node's backlog
        sample(h, s);
      }
      assertThat(late(h)).isEmpty();
      watermark(h, t(101));
      assertThat(ticks()).hasSize(6).contains("gpu=0 end=60 [50, 51, 52, 53, 54, 55, 56, 57, 58, 59]")
          .endsWith("gpu=0 end=90 [80, 81, 82, 83, 84, 85, 86, 87, 88, 89]");
      watermark(h, t(120));
      assertThat(ticks()).hasSize(7).endsWith("gpu=0 end=100 [90, 91, 92, 93, 94, 95, 96, 97, 98, 99]");
      assertThat(late(h)).isEmpty();
    }
  }

  @Test
  void aNodeThatFellSilentForGoodIsEvaluatedAfterTheGrace() throws Exception {
    try (var h = harness(300_000, io.fleetscope.flink.io.WallClock.fixed(t(75)))) {
      harnessNow = h;
      sample(h, 31);
      watermark(h, t(68));
      assertThat(ticks()).isEmpty();
      watermark(h, t(80));
      assertThat(ticks()).isEmpty();
      watermark(h, t(84)); // 68 s + catch_up_grace_ms 15 s
      assertThat(ticks()).containsExactly("gpu=0 end=40 [31]");
      var stamps = h.getSideOutput(recorder.output()).stream().map(StreamRecord::getTimestamp).toList();
      assertThat(stamps).containsExactly(t(40) - 1);
    }
  }

  @Test
  void aRecordFurtherBehindThanCatchUpIsLate() throws Exception {
    try (var h = harness(60_000)) {
      harnessNow = h;
      sample(h, 0);
      watermark(h, t(100));
      sample(h, 30); // 70 s behind, catch_up_ms 60 s
      sample(h, 50); // 50 s behind: taken
      assertThat(late(h)).singleElement().satisfies(r -> assertThat(r).startsWith("late: ts=" + t(30))
          .contains("more than pipeline.catch_up_ms=60000 behind the watermark"));
      watermark(h, t(116));
      assertThat(ticks()).containsExactly("gpu=0 end=10 [0]", "gpu=0 end=60 [50]");
    }
  }

  @Test
  void withCatchUpOffABacklogIsLateAsBefore() throws Exception {
    try (var h = harness(0)) {
      harnessNow = h;
      sample(h, 0);
      watermark(h, t(100));
      sample(h, 50);
      assertThat(late(h)).singleElement().satisfies(r -> assertThat(r).contains("pipeline.catch_up_ms=0"));
      watermark(h, t(200));
      assertThat(ticks()).containsExactly("gpu=0 end=10 [0]");
    }
  }
}
