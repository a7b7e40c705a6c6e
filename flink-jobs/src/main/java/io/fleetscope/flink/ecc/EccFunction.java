package io.fleetscope.flink.ecc;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.EccTrend;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.NodeAnalytic;
import io.fleetscope.flink.core.NodeKey;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.contract.AlertLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * Per GPU (unit of the node stage; an XID without a GPU index is GPU -1), over fleet.gpu.v1 and
 * fleet.gpu.xid.v1: {@link GpuEccAnalyzer} per tick.
 */
public final class EccFunction extends NodeAnalytic<SpecificRecord, Integer, EccTrend, GpuEccAnalyzer> {
  private static final long serialVersionUID = 1L;
  private final EccConfig cfg;
  private final XidCatalog xids;
  private final AnomalyFactory factory;

  public EccFunction(EccConfig cfg, XidCatalog xids, String source) {
    super(Topics.GPU, cfg.tickMs(), AvroTypeInfo.forClass(EccTrend.class), Set.of(GpuSample.class, GpuXid.class));
    this.cfg = cfg;
    this.xids = xids;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected Integer unitOf(SpecificRecord r) {
    if (r instanceof GpuSample s) {
      return s.getGpu();
    }
    Integer g = ((GpuXid) r).getGpu();
    return g == null ? -1 : g;
  }

  @Override
  protected boolean isUnitOf(Integer unit, SpecificRecord r) {
    int u = unit;
    if (r instanceof GpuSample s) {
      return s.getGpu() == u;
    }
    Integer g = ((GpuXid) r).getGpu();
    return (g == null ? -1 : g) == u;
  }

  /** The analyzer takes a tick's records in slices, so the node holds 10 s of samples, not 60 s. */
  @Override
  protected boolean foldsSlices() {
    return true;
  }

  @Override
  protected void onSlice(UnitTick<Integer, EccTrend> tick, List<SpecificRecord> records, UnitState<GpuEccAnalyzer> state) {
    GpuEccAnalyzer a = state.value() != null ? state.value() : new GpuEccAnalyzer();
    List<Anomaly> out = new ArrayList<>(1);
    a.accept(tick.end(), records, where(tick), cfg, xids, factory, out);
    state.update(a);
    emit(tick, out);
  }

  /** The analyzer's anomalies but the hard faults, which the fast path ({@link GpuHardFaults}) emits. */
  private static void emit(UnitTick<Integer, EccTrend> tick, List<Anomaly> out) {
    for (Anomaly a : out) {
      if (a != null && !GpuHardFaults.ALERTS.contains(a.getLabels().get(AlertLabels.ALERTNAME))) {
        tick.anomaly(a);
      }
    }
  }

  private static GpuEccAnalyzer.Where where(UnitTick<Integer, ?> tick) {
    NodeKey n = tick.node();
    String rack = tick.topology().inventory(n.node()).map(InventoryRecord::getRack).orElse(null);
    return new GpuEccAnalyzer.Where(n.cluster(), n.node(), tick.unit(), rack);
  }

  @Override
  protected void onTick(UnitTick<Integer, EccTrend> tick, List<SpecificRecord> records, UnitState<GpuEccAnalyzer> state)
      throws Exception {
    GpuEccAnalyzer a = state.value();
    if (a == null) {
      if (records.isEmpty()) {
        return;
      }
      a = new GpuEccAnalyzer();
    }
    GpuEccAnalyzer.Where w = where(tick);
    List<Anomaly> out = new ArrayList<>(2);
    GpuEccAnalyzer.TickResult r = a.tick(tick.end(), records, w, cfg, xids, factory, out);
    state.update(a);
    emit(tick, out);
    if (r.trend() != null) {
      tick.emit(r.trend());
    }
    if (r.wakeAt() != Long.MAX_VALUE) {
      long t = tickMs();
      tick.scheduleTick(Math.floorDiv(r.wakeAt() + t - 1, t) * t);
    }
  }
}
