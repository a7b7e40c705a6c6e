package io.fleetscope.flink.rail;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.NodeAnalytic;
import io.fleetscope.schemas.contract.AlertLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** Per port (unit of the IB node stage): one {@link PortWindow} per rail window, plus port anomalies. */
public final class PortWindowFunction extends NodeAnalytic<IbPortSample, NodeAnalytic.PortUnit, PortWindow, PortAnalyzer> {
  private static final long serialVersionUID = 1L;
  private final RailConfig cfg;
  private final AnomalyFactory factory;

  public PortWindowFunction(RailConfig cfg, String source) {
    super(io.fleetscope.schemas.Topics.IB, cfg.windowMs(), TypeInformation.of(PortWindow.class), Set.of(IbPortSample.class));
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected PortUnit unitOf(IbPortSample s) {
    return new PortUnit(s.getDevice(), s.getPort());
  }

  @Override
  protected boolean isUnitOf(PortUnit unit, IbPortSample s) {
    return unit.is(s.getDevice(), s.getPort());
  }

  @Override
  protected void onTick(UnitTick<PortUnit, PortWindow> tick, List<IbPortSample> records, UnitState<PortAnalyzer> state)
      throws Exception {
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
    for (Anomaly an : anomalies) {
      if (!PortLinkState.ALERTS.contains(an.getLabels().get(AlertLabels.ALERTNAME))) {
        tick.anomaly(an); // IbLinkDown is the fast path's (LinkDownFunction)
      }
    }
    if (w != null && w.rail >= 0) {
      tick.emit(w);
    }
  }
}
