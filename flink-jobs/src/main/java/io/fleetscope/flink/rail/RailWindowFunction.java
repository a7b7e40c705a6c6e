package io.fleetscope.flink.rail;

import io.fleetscope.flink.core.TimedBuffer;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by cluster: gathers the {@link PortWindow}s of one window (they carry the window's
 * timestamp) and, when the watermark passes it, emits the cluster's RailBandwidth records and
 * RailImbalance transitions (side output {@link TickedKeyedFunction#ANOMALIES}).
 */
public final class RailWindowFunction extends KeyedProcessFunction<String, PortWindow, RailBandwidth> {
  private static final long serialVersionUID = 1L;
  private final RailConfig cfg;
  private final AnomalyFactory factory;
  private transient TimedBuffer<PortWindow> pending;
  private transient ValueState<RailAggregator> state;

  public RailWindowFunction(RailConfig cfg, String source) {
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  public void open(OpenContext ctx) {
    pending = TimedBuffer.open(getRuntimeContext(), "rail-buffered", TypeInformation.of(PortWindow.class));
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("rail", new JavaSerializableTypeInfo<>(RailAggregator.class)));
  }

  @Override
  public void processElement(PortWindow w, Context ctx, Collector<RailBandwidth> out) throws Exception {
    long at = ctx.timestamp();
    pending.add(at, w);
    ctx.timerService().registerEventTimeTimer(at);
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<RailBandwidth> out) throws Exception {
    List<PortWindow> l = pending.take(timestamp);
    if (l == null) {
      return;
    }
    l.sort(Comparator.comparing(PortWindow::portId));
    RailAggregator a = state.value();
    if (a == null) {
      a = new RailAggregator();
    }
    List<Anomaly> anomalies = new ArrayList<>();
    List<RailBandwidth> rails = a.window(ctx.getCurrentKey(), l.get(0).windowEnd, l, cfg, factory, anomalies);
    state.update(a);
    rails.forEach(out::collect);
    anomalies.forEach(x -> ctx.output(TickedKeyedFunction.ANOMALIES, x));
  }
}
