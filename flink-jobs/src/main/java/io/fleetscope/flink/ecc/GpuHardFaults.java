package io.fleetscope.flink.ecc;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.CounterDelta;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The hard faults of one GPU, decided per record as it arrives (pure; no Flink): the fast path of
 * the ECC analytic. Same alerts, labels, severities and texts as the windowed
 * {@link GpuEccAnalyzer}, which no longer emits them:
 * <ul>
 *   <li>GpuEccUncorrectable (critical): on the sample whose ecc_dbe_total or retired_pages_dbe rose
 *       (counter resets by {@link CounterDelta}); resolved {@code ecc.dbe_quiet_ms} after the last
 *       increase, at that time;
 *   <li>GpuRowRemapFailure: {@code state} failure (critical), pending, retired-pages (warnings), as
 *       the newest sample shows them;
 *   <li>GpuXid: each distinct event (agent_seq, xid, ts) fires once per code while firing, with the
 *       meaning and severity of {@link XidCatalog}; resolved {@code ecc.xid_quiet_ms} after the
 *       code's last event, at that time.
 * </ul>
 * A sample older than the newest seen is ignored (it cannot move a counter or a state backwards);
 * an XID counts whenever it arrives.
 */
public final class GpuHardFaults implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The alerts this class decides (the windowed analyzer drops its own of these names). */
  public static final Set<String> ALERTS = Set.of("GpuEccUncorrectable", "GpuRowRemapFailure", "GpuXid");

  private long lastSampleTs = Long.MIN_VALUE;
  private Long lastDbe;
  private Long lastRetiredDbe;
  private long lastDbeIncreaseTs = Long.MIN_VALUE;
  private long dbeIncrease;
  private String lastUuid;
  private final HashMap<String, Long> seenXids = new HashMap<>();
  private final TreeMap<Integer, Long> lastXidByCode = new TreeMap<>();
  private final AlertTracker alerts = new AlertTracker();

  /**
   * Decides on one GPU sample; transitions go to {@code out}.
   *
   * @return when to call {@link #onWake} next (event time), or {@code Long.MAX_VALUE}
   */
  public long onSample(GpuSample s, GpuEccAnalyzer.Where w, EccConfig cfg, AnomalyFactory f, List<Anomaly> out) {
    if (s.getTs() <= lastSampleTs) {
      return Long.MAX_VALUE; // a duplicate or an older sample: the newer one already decided
    }
    resolveDbeIfQuiet(s.getTs(), w, cfg, f, out);
    long dbe = CounterDelta.delta(lastDbe, s.getEccDbeTotal(), 0, 0);
    long rdbe = CounterDelta.delta(lastRetiredDbe, s.getRetiredPagesDbe(), 0, 0);
    // the first sample of a GPU with a non-zero DBE count is an increase too (errors since boot)
    if (lastDbe == null && s.getEccDbeTotal() != null && s.getEccDbeTotal() > 0) {
      dbe = s.getEccDbeTotal();
    }
    if (s.getEccDbeTotal() != null) {
      lastDbe = s.getEccDbeTotal();
    }
    if (s.getRetiredPagesDbe() != null) {
      lastRetiredDbe = s.getRetiredPagesDbe();
    }
    lastSampleTs = s.getTs();
    long wake = Long.MAX_VALUE;
    if (dbe > 0 || rdbe > 0) {
      if (lastDbeIncreaseTs == Long.MIN_VALUE || s.getTs() - lastDbeIncreaseTs >= cfg.dbeQuietMs()) {
        dbeIncrease = 0;
      }
      lastDbeIncreaseTs = s.getTs();
      dbeIncrease += Math.max(dbe, 0) + Math.max(rdbe, 0);
      lastUuid = s.getUuid();
      add(out, alerts.update(dbeDraft(w, f), true, s.getTs()));
      wake = lastDbeIncreaseTs + cfg.dbeQuietMs();
    }
    rowRemap(s, w, cfg, f, out);
    return wake;
  }

  private void rowRemap(GpuSample s, GpuEccAnalyzer.Where w, EccConfig cfg, AnomalyFactory f, List<Anomaly> out) {
    boolean failure = Boolean.TRUE.equals(s.getRowRemapFailure());
    boolean pending = Boolean.TRUE.equals(s.getRowRemapPending());
    long retired = nz(s.getRetiredPagesSbe()) + nz(s.getRetiredPagesDbe());
    long ts = s.getTs();
    add(out, alerts.update(() -> GpuEccAnalyzer.gpuLabels(f.alert("GpuRowRemapFailure", "critical"), w).label("state", "failure"),
        failure, ts, d -> d
        .summary("row remapping failed on " + w.node() + " GPU " + w.gpu())
        .description("row_remap_failure on " + w.node() + " GPU " + w.gpu()
            + ": no spare rows left in a bank; the GPU needs replacement (RMA)")
        .value(1.0)));
    add(out, alerts.update(() -> GpuEccAnalyzer.gpuLabels(f.alert("GpuRowRemapFailure", "warning"), w).label("state", "pending"),
        pending && !failure, ts, d -> d
        .summary("row remap pending on " + w.node() + " GPU " + w.gpu())
        .description("row_remap_pending on " + w.node() + " GPU " + w.gpu()
            + ": a remap waits for a GPU reset; reset the GPU when its job ends")
        .value(1.0)));
    add(out, alerts.update(() -> GpuEccAnalyzer.gpuLabels(f.alert("GpuRowRemapFailure", "warning"), w).label("state", "retired-pages"),
        retired >= cfg.retiredPagesLimit(), ts, d -> d
        .summary("retired pages at the limit on " + w.node() + " GPU " + w.gpu())
        .description(retired + " retired pages (sbe " + nz(s.getRetiredPagesSbe()) + ", dbe " + nz(s.getRetiredPagesDbe())
            + ") on " + w.node() + " GPU " + w.gpu() + ", limit " + cfg.retiredPagesLimit() + ": replace the GPU")
        .value((double) retired)));
  }

  /**
   * Decides on one XID event: fires GpuXid for its code unless that code is firing already.
   *
   * @return when to call {@link #onWake} next (event time), or {@code Long.MAX_VALUE}
   */
  public long onXid(GpuXid x, GpuEccAnalyzer.Where w, EccConfig cfg, XidCatalog xids, AnomalyFactory f, List<Anomaly> out) {
    String id = x.getAgentSeq() + "/" + x.getXid() + "/" + x.getTs();
    if (seenXids.containsKey(id)) {
      return Long.MAX_VALUE; // the same event delivered twice (agent retry, replay)
    }
    long newest = seenXids.values().stream().mapToLong(Long::longValue).max().orElse(x.getTs());
    seenXids.values().removeIf(t -> t <= Math.max(newest, x.getTs()) - cfg.xidDedupMs());
    seenXids.put(id, x.getTs());
    long last = Math.max(x.getTs(), lastXidByCode.getOrDefault(x.getXid(), Long.MIN_VALUE));
    lastXidByCode.put(x.getXid(), last);
    add(out, alerts.fire(GpuEccAnalyzer.xidDraft(f, xids.lookup(x.getXid()), w, x), x.getTs()));
    return last + cfg.xidQuietMs();
  }

  /**
   * Resolves what has been quiet long enough by {@code ts}: the uncorrectable error after
   * {@code ecc.dbe_quiet_ms}, each XID code after {@code ecc.xid_quiet_ms}.
   *
   * @return when to call it next, or {@code Long.MAX_VALUE}
   */
  public long onWake(long ts, GpuEccAnalyzer.Where w, EccConfig cfg, XidCatalog xids, AnomalyFactory f, List<Anomaly> out) {
    resolveDbeIfQuiet(ts, w, cfg, f, out);
    long wake = lastDbeIncreaseTs == Long.MIN_VALUE ? Long.MAX_VALUE : lastDbeIncreaseTs + cfg.dbeQuietMs();
    for (Iterator<Map.Entry<Integer, Long>> it = lastXidByCode.entrySet().iterator(); it.hasNext();) {
      Map.Entry<Integer, Long> e = it.next();
      long quietEnd = e.getValue() + cfg.xidQuietMs();
      if (quietEnd <= ts) {
        add(out, alerts.update(GpuEccAnalyzer.xidDraft(f, xids.lookup(e.getKey()), w, null), false, quietEnd));
        it.remove();
      } else {
        wake = Math.min(wake, quietEnd);
      }
    }
    return wake;
  }

  private void resolveDbeIfQuiet(long ts, GpuEccAnalyzer.Where w, EccConfig cfg, AnomalyFactory f, List<Anomaly> out) {
    if (lastDbeIncreaseTs == Long.MIN_VALUE || ts - lastDbeIncreaseTs < cfg.dbeQuietMs()) {
      return;
    }
    long end = lastDbeIncreaseTs + cfg.dbeQuietMs();
    add(out, alerts.update(dbeDraft(w, f), false, end));
    lastDbeIncreaseTs = Long.MIN_VALUE;
    dbeIncrease = 0;
  }

  private AnomalyFactory.Draft dbeDraft(GpuEccAnalyzer.Where w, AnomalyFactory f) {
    return GpuEccAnalyzer.gpuLabels(f.alert("GpuEccUncorrectable", "critical"), w)
        .summary("uncorrectable ECC error on " + w.node() + " GPU " + w.gpu())
        .description("ecc_dbe_total/retired_pages_dbe rose by " + dbeIncrease + " on " + w.node() + " GPU " + w.gpu()
            + (lastUuid != null ? " (" + lastUuid + ")" : "")
            + ": the running job likely crashed; drain the node and reset the GPU")
        .value((double) dbeIncrease);
  }

  private static void add(List<Anomaly> out, Anomaly a) {
    if (a != null) {
      out.add(a);
    }
  }

  private static long nz(Long v) {
    return v == null ? 0 : v;
  }
}
