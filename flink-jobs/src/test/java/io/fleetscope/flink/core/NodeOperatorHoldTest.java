package io.fleetscope.flink.core;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/**
 * A second stage (here: one that lists, per tick, the nodes whose output it got, as the rail stage
 * gathers the nodes' port windows) behind the node operator, in a live run where one node's agent
 * spooled through a broker outage: the node operator holds its output watermark while that node
 * waits for and catches up on its backlog, so the second stage evaluates each tick once, with the
 * caught-up node's output in it.
 */
class NodeOperatorHoldTest {

  /** Per node and tick: {@code <node> end=<s>} with the tick's sample times. */
  static final class PerNode extends NodeAnalytic<GpuSample, Integer, String, Integer> {
    private static final long serialVersionUID = 1L;

    PerNode() {
      super(Topics.GPU, 10_000, Types.STRING, Set.of(GpuSample.class));
    }

    @Override
    protected Integer unitOf(GpuSample r) {
      return r.getGpu();
    }

    @Override
    protected void onTick(NodeAnalytic.UnitTick<Integer, String> tick, List<GpuSample> records, UnitState<Integer> state) {
      tick.emit(tick.node().node() + "=" + records.size());
    }
  }

  /** The second stage: per tick (the node stage's timer time), the nodes' outputs it was given, sorted. */
  static final class PerTick extends BufferedTickFunction<String, String> {
    private static final long serialVersionUID = 1L;

    PerTick() {
      super(Types.STRING, "per-tick");
    }

    @Override
    protected Comparator<String> order() {
      return Comparator.naturalOrder();
    }

    @Override
    protected void onTick(long timestamp, List<String> records, OnTimerContext ctx, Collector<String> out) {
      out.collect("end=" + (timestamp + 1 - t(0)) / 1000 + " " + records);
    }
  }

  private PerNode perNode;
  private KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> nodes;
  private KeyedOneInputStreamOperatorTestHarness<String, String, String> second;
  private int recordsSeen;
  private int outputSeen;

  private void open(CoBroadcastWithKeyedOperator<String, SpecificRecord, SpecificRecord, Void> op) throws Exception {
    nodes = new KeyedBroadcastOperatorTestHarness<>(op, NodeFunction::nodeKey, Types.STRING, 1, 1, 0);
    nodes.open();
    second = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new PerTick()), s -> "c1", Types.STRING);
    second.open();
  }

  private NodeFunction function() {
    NodeFunction fn = new NodeFunction("node-gpu", AnalyticsConfig.defaults().pipeline(), WallClock.fixed(t(75)));
    perNode = new PerNode();
    fn.add(perNode);
    return fn;
  }

  /** Hands what the node operator emitted since the last call to the second stage, in its order. */
  private void forward() throws Exception {
    List<StreamRecord<String>> recs = new ArrayList<>();
    var side = nodes.getSideOutput(perNode.output());
    if (side != null) {
      side.forEach(recs::add);
    }
    for (StreamRecord<String> r : recs.subList(recordsSeen, recs.size())) {
      second.processElement(r.getValue(), r.getTimestamp());
    }
    recordsSeen = recs.size();
    List<Object> out = new ArrayList<>(nodes.getOutput());
    for (Object o : out.subList(outputSeen, out.size())) {
      if (o instanceof Watermark w) { // timers' output goes out before the watermark that fired them
        second.processWatermark(w);
      }
    }
    outputSeen = out.size();
  }

  private void sample(String node, long s) throws Exception {
    nodes.processElement(Fleet.gpu(node, 0, t(s), s).build(), t(s));
    forward();
  }

  private void watermark(long ms) throws Exception {
    nodes.processBroadcastWatermark(new Watermark(ms));
    nodes.processWatermark(ms);
    forward();
  }

  private List<String> secondTicks() {
    return second.extractOutputValues();
  }

  private void outage() throws Exception {
    for (long s = 30; s < 36; s++) {
      sample("n1", s);
      sample("n2", s);
    }
    watermark(t(34));
    // the broker is back: n1's records come first (n2's agent is still reconnecting), the watermark jumps
    for (long s = 36; s < 73; s++) {
      sample("n1", s);
    }
    watermark(t(68));
  }

  @Test
  void aSecondStageGetsTheCaughtUpNodesOutputInItsTick() throws Exception {
    open(new NodeOperator(function()));
    outage();
    assertThat(secondTicks()).as("held: n2's tick to 40 s is still to come").isEmpty();
    for (long s = 36; s < 74; s++) { // n2's backlog
      sample("n2", s);
    }
    watermark(t(69));
    assertThat(secondTicks()).as("n2 catches up on its own clock, the watermark waits for it")
        .containsExactly("end=40 [n1=10, n2=10]", "end=50 [n1=10, n2=10]");
    watermark(t(80));
    watermark(t(85)); // n2 is quiet: its flush, catch_up_grace_ms after its backlog, ends the hold
    watermark(t(100));
    assertThat(secondTicks()).containsExactly("end=40 [n1=10, n2=10]", "end=50 [n1=10, n2=10]",
        "end=60 [n1=10, n2=10]", "end=70 [n1=10, n2=10]", "end=80 [n1=3, n2=4]");
    assertThat(nodes.getSideOutput(TickedKeyedFunction.LATE)).isNull();
  }

  @Test
  void theHoldEndsWithTheGraceWhenTheNodeNeverComesBack() throws Exception {
    open(new NodeOperator(function()));
    outage();
    watermark(t(80));
    assertThat(secondTicks()).isEmpty();
    watermark(t(84)); // 68 s + catch_up_grace_ms 15 s: n2's open slice is evaluated without it
    assertThat(secondTicks()).containsExactly("end=40 [n1=10, n2=6]", "end=50 [n1=10]", "end=60 [n1=10]",
        "end=70 [n1=10]", "end=80 [n1=3]");
  }
}
