package io.fleetscope.flink.rail;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by inventory id: runs {@link RailLayoutCheck} on every inventory record at once (the
 * compacted topology stream is mostly idle, so this does not wait for its watermark).
 */
public final class RailLayoutFunction extends KeyedProcessFunction<String, InventoryRecord, Anomaly> {
  private static final long serialVersionUID = 1L;
  private final AnomalyFactory factory;
  private transient ValueState<RailLayoutCheck> state;

  public RailLayoutFunction(String source) {
    this.factory = new AnomalyFactory(source);
  }

  @Override
  public void open(OpenContext ctx) {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("layout", new JavaSerializableTypeInfo<>(RailLayoutCheck.class)));
  }

  @Override
  public void processElement(InventoryRecord inv, Context ctx, Collector<Anomaly> out) throws Exception {
    RailLayoutCheck c = state.value();
    if (c == null) {
      c = new RailLayoutCheck();
    }
    Anomaly a = c.check(inv, factory);
    state.update(c);
    if (a != null) {
      out.collect(a);
    }
  }
}
