package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import io.fleetscope.flink.testing.Fleet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * A node's state goes into every checkpoint and, while an asynchronous snapshot runs, is copied on
 * first access: both must keep every buffered record and the analytics' state, and a copy must not
 * share anything that the running analytic changes.
 */
class NodeStateSerializationTest {
  private static final TypeSerializer<NodeFunction.NodeState> SERIALIZER =
      new JavaSerializableTypeInfo<>(NodeFunction.NodeState.class).createSerializer(new SerializerConfigImpl());

  /** Two analytics: GPU units with two open ticks of GPU samples and XIDs, a port unit with IB samples. */
  private static NodeFunction.NodeState sample() {
    NodeFunction.NodeState ns = new NodeFunction.NodeState(2);
    for (int gpu = 0; gpu < 2; gpu++) {
      NodeFunction.Unit u = new NodeFunction.Unit(gpu);
      for (int s = 0; s < 3; s++) {
        long ts = Fleet.t(s);
        u.add(Fleet.t(10), Fleet.gpu("n1", gpu, ts, s).setTempC(60.0 + s).build());
      }
      u.add(Fleet.t(20), Fleet.xid("n1", gpu, 79, Fleet.t(11), 4));
      HashMap<String, Double> state = new HashMap<>();
      state.put("last_temp", 62.0 + gpu);
      u.update(state);
      ns.units.get(0).add(u);
    }
    NodeFunction.Unit port = new NodeFunction.Unit("mlx5_3/1");
    port.add(Fleet.t(10), Fleet.ib("n1", 3, Fleet.t(1), 1).build());
    port.update(new long[] {7, 8});
    ns.units.get(1).add(port);
    return ns;
  }

  private static List<SpecificRecord> records(NodeFunction.NodeState ns, int analytic, int unit, long end) {
    ArrayList<SpecificRecord> l = ns.units.get(analytic).get(unit).take(end);
    return l == null ? List.of() : l;
  }

  @Test
  void checkpointRoundTripKeepsEveryBufferedRecordAndState() throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    SERIALIZER.serialize(sample(), out);
    NodeFunction.NodeState back = SERIALIZER.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    NodeFunction.NodeState expected = sample();

    for (int gpu = 0; gpu < 2; gpu++) {
      assertThat(back.units.get(0).get(gpu).key).isEqualTo(gpu);
      assertThat(back.units.get(0).get(gpu).value()).isEqualTo(expected.units.get(0).get(gpu).value());
      assertThat(records(back, 0, gpu, Fleet.t(10))).hasSize(3).isEqualTo(records(expected, 0, gpu, Fleet.t(10)));
      assertThat(records(back, 0, gpu, Fleet.t(20))).hasSize(1).isEqualTo(records(expected, 0, gpu, Fleet.t(20)));
    }
    assertThat((long[]) back.units.get(1).get(0).value()).containsExactly(7, 8);
    assertThat(records(back, 1, 0, Fleet.t(10))).isEqualTo(records(expected, 1, 0, Fleet.t(10)));
    // a restored unit keeps buffering: a new tick after the restored ones
    assertThat(back.units.get(1).get(0).add(Fleet.t(30), Fleet.ib("n1", 3, Fleet.t(21), 2).build())).isTrue();
  }

  @Test
  @SuppressWarnings("unchecked")
  void copyDuringASnapshotSharesNothingTheAnalyticChanges() {
    NodeFunction.NodeState original = sample();
    NodeFunction.NodeState copy = SERIALIZER.copy(original);

    NodeFunction.Unit gpu0 = copy.units.get(0).get(0);
    gpu0.add(Fleet.t(10), Fleet.gpu("n1", 0, Fleet.t(5), 5).build());
    ((HashMap<String, Double>) gpu0.value()).put("last_temp", 99.0);
    copy.units.get(1).get(0).take(Fleet.t(10));

    assertThat(records(original, 0, 0, Fleet.t(10))).hasSize(3);
    assertThat(((HashMap<String, Double>) original.units.get(0).get(0).value())).containsEntry("last_temp", 62.0);
    assertThat(records(original, 1, 0, Fleet.t(10))).hasSize(1);
    assertThat(records(copy, 0, 0, Fleet.t(10))).hasSize(4).first().isInstanceOf(GpuSample.class);
  }

  /** A node state whose {@code analytics} analytics each buffer the same ten GPU samples, as NodeFunction does. */
  private static NodeFunction.NodeState sharedBy(int analytics) {
    NodeFunction.NodeState ns = new NodeFunction.NodeState(analytics);
    List<GpuSample> samples = new ArrayList<>();
    for (int s = 0; s < 10; s++) samples.add(Fleet.gpu("n1", 0, Fleet.t(s), s).setTempC(60.0 + s).build());
    for (int a = 0; a < analytics; a++) {
      NodeFunction.Unit u = new NodeFunction.Unit(0);
      for (GpuSample g : samples) u.add(Fleet.t(10), g);
      ns.units.get(a).add(u);
    }
    return ns;
  }

  private static byte[] bytes(NodeFunction.NodeState ns) throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    SERIALIZER.serialize(ns, out);
    return out.getCopyOfBuffer();
  }

  @Test
  void aRecordBufferedByEveryAnalyticIsWrittenOnceAndSharedAgainOnRestore() throws Exception {
    int one = bytes(sharedBy(1)).length;
    byte[] four = bytes(sharedBy(4));
    assertThat(four.length).as("four analytics buffering the same samples vs one").isLessThan(one + one / 4);

    NodeFunction.NodeState back = SERIALIZER.deserialize(new DataInputDeserializer(four));
    List<SpecificRecord> expected = records(sharedBy(1), 0, 0, Fleet.t(10));
    List<List<SpecificRecord>> restored = new ArrayList<>();
    for (int a = 0; a < 4; a++) restored.add(records(back, a, 0, Fleet.t(10)));
    for (List<SpecificRecord> l : restored) assertThat(l).hasSize(10).isEqualTo(expected);
    for (int i = 0; i < 10; i++) assertThat(restored.get(3).get(i)).isSameAs(restored.get(0).get(i));
  }

  @Test
  void aUnitAloneStillCarriesItsRecords() throws Exception {
    NodeFunction.Unit u = sample().units.get(0).get(1);
    NodeFunction.Unit back = (NodeFunction.Unit) JavaSerializableTypeInfo.copyBySerialization(u);
    assertThat(back.take(Fleet.t(10))).hasSize(3).isEqualTo(sample().units.get(0).get(1).take(Fleet.t(10)));
  }
}
