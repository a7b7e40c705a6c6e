package io.fleetscope.flink.core;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

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
 * A node analytic with a 60 s tick that folds slices (pipeline.slice_ms 10 s), in the node operator,
 * on the heap state backend and on RocksDB (which hands out copies: a change not written back is lost,
 * as the node operator's was before it kept its records in list state). Run by its subclasses, one per
 * backend: {@link NodeFunctionSliceOnHeapTest}, {@link NodeFunctionSliceOnRocksDbTest}.
 */
abstract class NodeFunctionSliceTest {
  /** The state backend the harness runs on. */
  abstract org.apache.flink.runtime.state.StateBackend backend();

  /** Per GPU, says each call it gets: {@code slice|tick <tick end s> [record ts s...] folded=<n>}. */
  static final class Recorder extends NodeAnalytic<GpuSample, Integer, String, Integer> {
    private static final long serialVersionUID = 1L;
    private final boolean folds;

    Recorder(boolean folds) {
      super(Topics.GPU, 60_000, Types.STRING, Set.of(GpuSample.class));
      this.folds = folds;
    }

    @Override
    protected Integer unitOf(GpuSample r) {
      return r.getGpu();
    }

    @Override
    protected boolean foldsSlices() {
      return folds;
    }

    @Override
    protected void onSlice(NodeAnalytic.UnitTick<Integer, String> tick, List<GpuSample> records, UnitState<Integer> state) {
      int folded = (state.value() == null ? 0 : state.value()) + records.size();
      state.update(folded);
      tick.emit("slice " + label(tick) + seconds(records) + " folded=" + folded);
    }

    @Override
    protected void onTick(NodeAnalytic.UnitTick<Integer, String> tick, List<GpuSample> records, UnitState<Integer> state) {
      int folded = (state.value() == null ? 0 : state.value()) + records.size();
      state.update(null);
      tick.emit("tick " + label(tick) + seconds(records) + " folded=" + folded);
    }

    /** {@code gpu=<unit> end=<tick end in s after t(0)> }. */
    private static String label(NodeAnalytic.UnitTick<Integer, String> tick) {
      assertThat(tick.node()).isEqualTo(new NodeKey("c1", "n1"));
      assertThat(tick.key()).isEqualTo("c1|n1|" + tick.unit());
      return "gpu=" + tick.unit() + " end=" + (tick.end() - t(0)) / 1000 + " ";
    }

    private static List<Long> seconds(List<GpuSample> records) {
      return records.stream().map(r -> (r.getTs() - t(0)) / 1000).toList();
    }
  }

  private Recorder recorder;

  private KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> harness(boolean folds) throws Exception {
    NodeFunction node = new NodeFunction("node-gpu", AnalyticsConfig.defaults().pipeline(), Runs.CLOCK);
    recorder = new Recorder(folds);
    node.add(recorder);
    var h = new KeyedBroadcastOperatorTestHarness<>(
        new org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator<>(node, List.of(Topology.INVENTORY, Topology.JOBS)),
        NodeFunction::nodeKey, Types.STRING, 1, 1, 0);
    h.setStateBackend(backend());
    h.open();
    return h;
  }

  private List<String> calls(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h) {
    var out = h.getSideOutput(recorder.output());
    return out == null ? List.of() : out.stream().map(StreamRecord::getValue).toList();
  }

  private static void sample(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h, int gpu, long s)
      throws Exception {
    h.processElement(Fleet.gpu("n1", gpu, t(s), s).build(), t(s));
  }

  private static void watermark(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h, long ms)
      throws Exception {
    h.processBroadcastWatermark(new Watermark(ms));
    h.processWatermark(ms);
  }

  @Test
  void aLongTickComesInSlicesInTimeOrderAndEndsWithItsTick() throws Exception {
    try (var h = harness(true)) {
      sample(h, 0, 12);
      sample(h, 0, 3);
      sample(h, 0, 1);
      sample(h, 0, 55);
      sample(h, 0, 58);
      watermark(h, t(10) - 1);
      // the first slice is handed over as soon as the watermark passes it, sorted
      assertThat(calls(h)).hasSize(1);
      watermark(h, t(60) - 1);
      assertThat(calls(h)).containsExactly(
          "slice gpu=0 end=60 [1, 3] folded=2",
          "slice gpu=0 end=60 [12] folded=3",
          "tick gpu=0 end=60 [55, 58] folded=5");
      assertThat(h.numEventTimeTimers()).isZero();
    }
  }

  @Test
  void aUnitWhoseRecordsAreAllInEarlierSlicesStillGetsItsTick() throws Exception {
    try (var h = harness(true)) {
      sample(h, 1, 5);
      watermark(h, t(120));
      assertThat(calls(h)).containsExactly(
          "slice gpu=1 end=60 [5] folded=1",
          "tick gpu=1 end=60 [] folded=1");
    }
  }

  @Test
  void aRecordIsLateOnceItsSliceWasEvaluated() throws Exception {
    try (var h = harness(true)) {
      sample(h, 0, 1);
      watermark(h, t(25));
      sample(h, 0, 4); // its slice (0-10 s) is done, its tick (0-60 s) is not
      sample(h, 0, 26);
      var late = h.getSideOutput(TickedKeyedFunction.LATE);
      assertThat(late).singleElement().extracting(r -> r.getValue().getReason().toString())
          .satisfies(r -> assertThat(r).startsWith("late: ts=" + t(4)).contains("analytic=Recorder"));
      watermark(h, t(60));
      assertThat(calls(h)).containsExactly(
          "slice gpu=0 end=60 [1] folded=1",
          "slice gpu=0 end=60 [26] folded=2",
          "tick gpu=0 end=60 [] folded=2");
    }
  }

  @Test
  void anAnalyticThatDoesNotFoldGetsTheWholeTick() throws Exception {
    try (var h = harness(false)) {
      sample(h, 0, 12);
      sample(h, 0, 1);
      watermark(h, t(30));
      sample(h, 0, 4); // in time for its tick
      watermark(h, t(60));
      assertThat(calls(h)).containsExactly("tick gpu=0 end=60 [1, 4, 12] folded=3");
      assertThat(h.getSideOutput(TickedKeyedFunction.LATE)).isNull();
    }
  }
}
