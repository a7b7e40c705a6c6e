package io.fleetscope.flink.fabric;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by cluster and rail ({@link #keyOf}): runs {@link FabricAudit} on every port configuration
 * record at once (the compacted configuration stream is mostly idle, so this does not wait for its
 * watermark; a port's record is judged against the rail's latest records).
 */
public final class FabricDriftFunction extends KeyedProcessFunction<String, PortConfig, Anomaly> {
  private static final long serialVersionUID = 1L;
  private final FabricSettings cfg;
  private final AnomalyFactory factory;
  private transient ValueState<FabricAudit> state;

  public FabricDriftFunction(FabricSettings cfg, String source) {
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  /** The key of a port's rail: {@code cluster|rail}, or {@code cluster|node} for a port without a rail (policy only). */
  public static String keyOf(PortConfig c) {
    return c.getCluster() + "|" + (c.getRail() != null ? "rail " + c.getRail() : "node " + c.getNode());
  }

  @Override
  public void open(OpenContext ctx) {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("fabric-rail", new JavaSerializableTypeInfo<>(FabricAudit.class)));
  }

  @Override
  public void processElement(PortConfig c, Context ctx, Collector<Anomaly> out) throws Exception {
    FabricAudit a = state.value();
    if (a == null) {
      a = new FabricAudit();
    }
    for (Anomaly x : a.onConfig(c, cfg, factory)) {
      out.collect(x);
    }
    state.update(a);
  }
}
