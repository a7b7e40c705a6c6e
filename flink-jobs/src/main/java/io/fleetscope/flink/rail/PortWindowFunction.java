package io.fleetscope.flink.rail;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.core.WallClock;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;

/** Keyed by port (cluster|node|device|port): one {@link PortWindow} per rail window, plus port anomalies. */
public final class PortWindowFunction extends TickedKeyedFunction<IbPortSample, PortWindow> {
  private static final long serialVersionUID = 1L;
  private final RailConfig cfg;
  private final AnomalyFactory factory;
  private transient ValueState<PortAnalyzer> state;

  public PortWindowFunction(RailConfig cfg, PipelineConfig pipeline, WallClock clock, String source) {
    super(io.fleetscope.schemas.Topics.IB, IbPortSample.class, cfg.windowMs(), pipeline, clock);
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  public static String keyOf(IbPortSample s) {
    return s.getCluster() + "|" + s.getNode() + "|" + s.getDevice() + "|" + s.getPort();
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("port", new JavaSerializableTypeInfo<>(PortAnalyzer.class)));
  }

  @Override
  protected void onTick(Tick<PortWindow> tick, List<IbPortSample> records) throws Exception {
    if (records.isEmpty()) {
      return;
    }
    PortAnalyzer a = state.value();
    if (a == null) {
      a = new PortAnalyzer();
    }
    IbPortSample first = records.get(0);
    Optional<InventoryRecord> inv = tick.topology().inventory(first.getNode());
    double nominal = inv.flatMap(i -> i.getHcas().stream()
            .filter(h -> h.getDevice().equals(first.getDevice()) && h.getPort() == first.getPort())
            .map(HcaInfo::getRateGbps).filter(r -> r != null && r > 0).findFirst())
        .orElse(cfg.lineRateGbps());
    String rack = inv.map(InventoryRecord::getRack).orElse(null);
    List<Anomaly> anomalies = new ArrayList<>(2);
    PortWindow w = a.window(records, tick.end(), nominal, rack, cfg, factory, anomalies);
    state.update(a);
    anomalies.forEach(tick::anomaly);
    if (w != null && w.rail >= 0) {
      tick.emit(w);
    }
  }
}
