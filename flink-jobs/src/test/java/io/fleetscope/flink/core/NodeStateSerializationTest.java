package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import io.fleetscope.flink.testing.Fleet;
import java.util.HashMap;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * A node's units go into every checkpoint and, on RocksDB, through the serializer at every evaluated
 * slice; with the heap backend, an asynchronous snapshot copies them on first access: both must keep
 * the analytics' state and open ticks, and a copy must not share anything the running analytic changes.
 */
class NodeStateSerializationTest {
  private static final TypeSerializer<NodeFunction.NodeState> SERIALIZER =
      new JavaSerializableTypeInfo<>(NodeFunction.NodeState.class).createSerializer(new SerializerConfigImpl());

  /** Two analytics: two GPU units with open ticks and state, a port unit with a scheduled tick. */
  private static NodeFunction.NodeState sample() {
    NodeFunction.NodeState ns = new NodeFunction.NodeState(2);
    for (int gpu = 0; gpu < 2; gpu++) {
      NodeFunction.Unit u = new NodeFunction.Unit(gpu);
      u.schedule(Fleet.t(20));
      u.schedule(Fleet.t(10));
      HashMap<String, Double> state = new HashMap<>();
      state.put("last_temp", 62.0 + gpu);
      u.update(state);
      ns.units.get(0).add(u);
    }
    NodeFunction.Unit port = new NodeFunction.Unit("mlx5_3/1");
    port.schedule(Fleet.t(60));
    port.update(new long[] {7, 8});
    ns.units.get(1).add(port);
    return ns;
  }

  @Test
  void roundTripKeepsEveryUnitItsStateAndItsOpenTicks() throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    SERIALIZER.serialize(sample(), out);
    NodeFunction.NodeState back = SERIALIZER.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    NodeFunction.NodeState expected = sample();

    for (int gpu = 0; gpu < 2; gpu++) {
      NodeFunction.Unit u = back.units.get(0).get(gpu);
      assertThat(u.key).isEqualTo(gpu);
      assertThat(u.value()).isEqualTo(expected.units.get(0).get(gpu).value());
      assertThat(u.openEnds()).containsExactly(Fleet.t(10), Fleet.t(20));
    }
    NodeFunction.Unit port = back.units.get(1).get(0);
    assertThat((long[]) port.value()).containsExactly(7, 8);
    assertThat(port.openEnds()).containsExactly(Fleet.t(60));
    // a restored unit goes on: its tick closes once, a new one opens
    assertThat(port.take(Fleet.t(60))).isTrue();
    assertThat(port.take(Fleet.t(60))).isFalse();
    assertThat(port.schedule(Fleet.t(70))).isTrue();
  }

  @Test
  @SuppressWarnings("unchecked")
  void aCopySharesNothingTheAnalyticChanges() {
    NodeFunction.NodeState original = sample();
    NodeFunction.NodeState copy = SERIALIZER.copy(original);

    NodeFunction.Unit gpu0 = copy.units.get(0).get(0);
    gpu0.schedule(Fleet.t(30));
    ((HashMap<String, Double>) gpu0.value()).put("last_temp", 99.0);
    copy.units.get(1).get(0).take(Fleet.t(60));

    assertThat(original.units.get(0).get(0).openEnds()).containsExactly(Fleet.t(10), Fleet.t(20));
    assertThat((HashMap<String, Double>) original.units.get(0).get(0).value()).containsEntry("last_temp", 62.0);
    assertThat(original.units.get(1).get(0).openEnds()).containsExactly(Fleet.t(60));
    assertThat(gpu0.openEnds()).containsExactly(Fleet.t(10), Fleet.t(20), Fleet.t(30));
  }
}
