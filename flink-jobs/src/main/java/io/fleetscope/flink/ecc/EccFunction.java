package io.fleetscope.flink.ecc;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.EccTrend;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.core.WallClock;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;

/** Keyed by GPU (cluster|node|gpu), over fleet.gpu.v1 and fleet.gpu.xid.v1: {@link GpuEccAnalyzer} per tick. */
public final class EccFunction extends TickedKeyedFunction<SpecificRecord, EccTrend> {
  private static final long serialVersionUID = 1L;
  private final EccConfig cfg;
  private final XidCatalog xids;
  private final AnomalyFactory factory;
  private transient ValueState<GpuEccAnalyzer> state;

  public EccFunction(EccConfig cfg, XidCatalog xids, PipelineConfig pipeline, WallClock clock, String source) {
    super(Topics.GPU, AvroTypeInfo.anyOf(GpuSample.class, GpuXid.class), cfg.tickMs(), pipeline, clock);
    this.cfg = cfg;
    this.xids = xids;
    this.factory = new AnomalyFactory(source);
  }

  public static String keyOf(SpecificRecord r) {
    if (r instanceof GpuSample s) {
      return s.getCluster() + "|" + s.getNode() + "|" + s.getGpu();
    }
    GpuXid x = (GpuXid) r;
    return x.getCluster() + "|" + x.getNode() + "|" + (x.getGpu() == null ? -1 : x.getGpu());
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("ecc", new JavaSerializableTypeInfo<>(GpuEccAnalyzer.class)));
  }

  @Override
  protected void onTick(Tick<EccTrend> tick, List<SpecificRecord> records) throws Exception {
    GpuEccAnalyzer a = state.value();
    if (a == null) {
      if (records.isEmpty()) {
        return;
      }
      a = new GpuEccAnalyzer();
    }
    String[] k = tick.key().split("\\|", 3);
    String rack = tick.topology().inventory(k[1]).map(InventoryRecord::getRack).orElse(null);
    GpuEccAnalyzer.Where w = new GpuEccAnalyzer.Where(k[0], k[1], Integer.parseInt(k[2]), rack);
    List<Anomaly> out = new ArrayList<>(2);
    GpuEccAnalyzer.TickResult r = a.tick(tick.end(), records, w, cfg, xids, factory, out);
    state.update(a);
    out.forEach(tick::anomaly);
    if (r.trend() != null) {
      tick.emit(r.trend());
    }
    if (r.wakeAt() != Long.MAX_VALUE) {
      long t = tickMs();
      tick.scheduleTick(Math.floorDiv(r.wakeAt() + t - 1, t) * t);
    }
  }
}
