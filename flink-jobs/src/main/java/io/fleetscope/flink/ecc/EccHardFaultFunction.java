package io.fleetscope.flink.ecc;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.ArrivalFunction;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * The ECC analytic's fast path, keyed by GPU ({@link #keyOf}: cluster|node|gpu; an XID without a
 * GPU index is GPU -1): {@link GpuHardFaults} per record of fleet.gpu.v1 and fleet.gpu.xid.v1.
 */
public final class EccHardFaultFunction extends ArrivalFunction<SpecificRecord, GpuHardFaults> {
  private static final long serialVersionUID = 1L;
  private final EccConfig cfg;
  private final XidCatalog xids;
  private final AnomalyFactory factory;

  public EccHardFaultFunction(EccConfig cfg, XidCatalog xids, String source) {
    super("ecc-hard-faults", GpuHardFaults.class);
    this.cfg = cfg;
    this.xids = xids;
    this.factory = new AnomalyFactory(source);
  }

  /** The GPU of a sample or an XID event. */
  public static String keyOf(SpecificRecord r) {
    if (r instanceof GpuSample s) {
      return s.getCluster() + "|" + s.getNode() + "|" + s.getGpu();
    }
    GpuXid x = (GpuXid) r;
    return x.getCluster() + "|" + x.getNode() + "|" + (x.getGpu() == null ? -1 : x.getGpu());
  }

  /** A sample: its uncorrectable counters and row-remap flags; an XID is an event. */
  @Override
  protected long[] signature(SpecificRecord r) {
    if (!(r instanceof GpuSample s)) {
      return null;
    }
    long retired = (s.getRetiredPagesSbe() == null ? 0 : s.getRetiredPagesSbe())
        + (s.getRetiredPagesDbe() == null ? 0 : s.getRetiredPagesDbe());
    long flags = (Boolean.TRUE.equals(s.getRowRemapFailure()) ? 1 : 0) | (Boolean.TRUE.equals(s.getRowRemapPending()) ? 2 : 0)
        | (retired >= cfg.retiredPagesLimit() ? 4 : 0);
    return new long[] {orMinus1(s.getEccDbeTotal()), orMinus1(s.getRetiredPagesDbe()), flags};
  }

  private static long orMinus1(Long v) {
    return v == null ? -1 : v;
  }

  @Override
  protected GpuHardFaults newState() {
    return new GpuHardFaults();
  }

  @Override
  protected void onRecord(SpecificRecord r, GpuHardFaults s, Decisions d) {
    List<Anomaly> out = new ArrayList<>(1);
    long wake;
    if (r instanceof GpuSample g) {
      wake = s.onSample(g, where(g.getCluster(), g.getNode(), g.getGpu(), d), cfg, factory, out);
    } else {
      GpuXid x = (GpuXid) r;
      wake = s.onXid(x, where(x.getCluster(), x.getNode(), x.getGpu() == null ? -1 : x.getGpu(), d), cfg, xids, factory, out);
    }
    out.forEach(d::anomaly);
    if (wake != Long.MAX_VALUE) {
      d.wakeAt(wake);
    }
  }

  @Override
  protected boolean onWake(long ts, GpuHardFaults s, Decisions d) {
    String key = d.key(); // cluster|node|gpu
    int a = key.indexOf('|');
    int b = key.lastIndexOf('|');
    List<Anomaly> out = new ArrayList<>(1);
    long wake = s.onWake(ts, where(key.substring(0, a), key.substring(a + 1, b), Integer.parseInt(key.substring(b + 1)), d),
        cfg, xids, factory, out);
    out.forEach(d::anomaly);
    if (wake != Long.MAX_VALUE) {
      d.wakeAt(wake);
    }
    return true;
  }

  private static GpuEccAnalyzer.Where where(String cluster, String node, int gpu, Decisions d) {
    return new GpuEccAnalyzer.Where(cluster, node, gpu, d.topology().inventory(node).map(InventoryRecord::getRack).orElse(null));
  }
}
