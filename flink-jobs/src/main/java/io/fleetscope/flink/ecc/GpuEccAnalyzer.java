package io.fleetscope.flink.ecc;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.EccTrend;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.CounterDelta;
import io.fleetscope.flink.core.VarInts;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * ECC and XID state of one GPU across ticks (pure; no Flink). Corrected (SBE) errors per tick in
 * a ring of {@code long_window/tick} buckets give the short- and long-window rates and the trend;
 * alerts: GpuEccUncorrectable (any DBE or DBE-retired-page increase, at once; resolved after a
 * quiet period), GpuEccCorrectableRising, GpuRowRemapFailure (state failure / pending /
 * retired-pages), GpuXid (each distinct event counted once; resolved after a quiet period).
 */
public final class GpuEccAnalyzer implements Serializable {
  private static final long serialVersionUID = 2L;

  /** SBE increases per tick over the long window; written sparsely (almost all zero). */
  private transient long[] buckets;
  private long lastTickEnd = Long.MIN_VALUE;
  private long firstTs = Long.MIN_VALUE;
  private long lastSampleTs = Long.MIN_VALUE;
  private Long lastSbe;
  private Long lastDbe;
  private Long lastRetiredDbe;
  private long lastDbeIncreaseTs = Long.MIN_VALUE;
  private long dbeIncrease;
  private GpuSample last;
  /** Whether the tick being accepted (in slices, {@link #accept}) had a GPU sample. */
  private boolean tickHadSample;
  private final HashMap<String, Long> seenXids = new HashMap<>();
  private final ArrayDeque<Long> xidTimes = new ArrayDeque<>();
  private final TreeMap<Integer, Long> lastXidByCode = new TreeMap<>();
  private final AlertTracker alerts = new AlertTracker();

  /** Where the GPU is, for labels. */
  public record Where(String cluster, String node, int gpu, String rack) implements Serializable {}

  /** Result of one tick: the trend record (null when the tick had no GPU sample) and the next tick wanted. */
  public record TickResult(EccTrend trend, long wakeAt) {}

  public TickResult tick(long tickEnd, List<SpecificRecord> records, Where w, EccConfig cfg, XidCatalog xids,
      AnomalyFactory f, List<Anomaly> out) {
    accept(tickEnd, records, w, cfg, xids, f, out);
    boolean hadSample = tickHadSample;
    tickHadSample = false;
    long evalTs = hadSample ? last.getTs() : tickEnd;
    // uncorrectable: fires at once on an increase, resolves after the quiet period
    boolean dbeActive = lastDbeIncreaseTs != Long.MIN_VALUE && tickEnd - lastDbeIncreaseTs < cfg.dbeQuietMs();
    final long dbeIncreaseF = dbeIncrease;
    final GpuSample lastF = last;
    out.add(alerts.update(() -> gpuLabels(f.alert("GpuEccUncorrectable", "critical"), w), dbeActive,
        dbeActive ? lastDbeIncreaseTs : evalTs, d -> d
        .summary("uncorrectable ECC error on " + w.node() + " GPU " + w.gpu())
        .description("ecc_dbe_total/retired_pages_dbe rose by " + dbeIncreaseF + " on " + w.node() + " GPU " + w.gpu()
            + (lastF != null && lastF.getUuid() != null ? " (" + lastF.getUuid() + ")" : "")
            + ": the running job likely crashed; drain the node and reset the GPU")
        .value((double) dbeIncreaseF)));
    double shortRate = rate(tickEnd, cfg.shortWindowMs(), cfg);
    double longRate = rate(tickEnd, cfg.longWindowMs(), cfg);
    long covered = firstTs == Long.MIN_VALUE ? 0 : tickEnd - firstTs;
    Double trend = covered > cfg.shortWindowMs()
        ? (shortRate - longRate) / ((Math.min(covered, cfg.longWindowMs()) - cfg.shortWindowMs()) / 3_600_000.0 / 2) : null;
    // the labels only when an ECC alert fires or the rate is over the limit (never on a healthy GPU)
    boolean anyFiring = alerts.firingCount() > 0;
    AnomalyFactory.Draft rising = anyFiring || shortRate >= cfg.sbeRatePerH()
        ? gpuLabels(f.alert("GpuEccCorrectableRising", "warning"), w) : null;
    boolean firing = rising != null && alerts.isFiring(rising);
    boolean risingNow = firing ? shortRate >= cfg.sbeRatePerH() * cfg.sbeClearFraction()
        : shortRate >= cfg.sbeRatePerH() && shortRate >= longRate;
    if (rising != null) {
      out.add(alerts.update(rising, risingNow, evalTs, d -> d
          .summary("corrected ECC errors rising on " + w.node() + " GPU " + w.gpu())
          .description(String.format(Locale.ROOT, "%.0f corrected errors/h over %d min (limit %.0f/h), %.0f/h over %d h%s: "
                  + "memory is degrading; plan a reset/row remap at the next drain",
              shortRate, cfg.shortWindowMs() / 60000, cfg.sbeRatePerH(), longRate, cfg.longWindowMs() / 3_600_000,
              trend == null ? "" : String.format(Locale.ROOT, ", trend %+.1f/h per h", trend)))
          .value(shortRate)));
    }
    if (last != null) {
      boolean failure = Boolean.TRUE.equals(last.getRowRemapFailure());
      boolean pending = Boolean.TRUE.equals(last.getRowRemapPending());
      long retired = nz(last.getRetiredPagesSbe()) + nz(last.getRetiredPagesDbe());
      out.add(alerts.update(() -> gpuLabels(f.alert("GpuRowRemapFailure", "critical"), w).label("state", "failure"),
          failure, evalTs, d -> d
          .summary("row remapping failed on " + w.node() + " GPU " + w.gpu())
          .description("row_remap_failure on " + w.node() + " GPU " + w.gpu()
              + ": no spare rows left in a bank; the GPU needs replacement (RMA)")
          .value(1.0)));
      out.add(alerts.update(() -> gpuLabels(f.alert("GpuRowRemapFailure", "warning"), w).label("state", "pending"),
          pending && !failure, evalTs, d -> d
          .summary("row remap pending on " + w.node() + " GPU " + w.gpu())
          .description("row_remap_pending on " + w.node() + " GPU " + w.gpu()
              + ": a remap waits for a GPU reset; reset the GPU when its job ends")
          .value(1.0)));
      out.add(alerts.update(() -> gpuLabels(f.alert("GpuRowRemapFailure", "warning"), w).label("state", "retired-pages"),
          retired >= cfg.retiredPagesLimit(), evalTs, d -> d
          .summary("retired pages at the limit on " + w.node() + " GPU " + w.gpu())
          .description(retired + " retired pages (sbe " + nz(lastF.getRetiredPagesSbe()) + ", dbe " + nz(lastF.getRetiredPagesDbe())
              + ") on " + w.node() + " GPU " + w.gpu() + ", limit " + cfg.retiredPagesLimit() + ": replace the GPU")
          .value((double) retired)));
    }
    long wake = Long.MAX_VALUE;
    for (Iterator<Map.Entry<Integer, Long>> it = lastXidByCode.entrySet().iterator(); it.hasNext();) {
      Map.Entry<Integer, Long> e = it.next();
      long quietEnd = e.getValue() + cfg.xidQuietMs();
      if (quietEnd <= tickEnd) {
        XidCatalog.Xid x = xids.lookup(e.getKey());
        out.add(alerts.update(xidDraft(f, x, w, null), false, quietEnd));
        it.remove();
      } else {
        wake = Math.min(wake, quietEnd);
      }
    }
    if (dbeActive) {
      wake = Math.min(wake, lastDbeIncreaseTs + cfg.dbeQuietMs());
    } else {
      dbeIncrease = 0;
    }
    while (!xidTimes.isEmpty() && xidTimes.peekFirst() <= tickEnd - cfg.longWindowMs()) {
      xidTimes.pollFirst();
    }
    seenXids.values().removeIf(t -> t <= tickEnd - cfg.xidDedupMs());
    out.removeIf(a -> a == null);
    EccTrend t = null;
    if (hadSample) {
      t = EccTrend.newBuilder()
          .setTs(last.getTs())
          .setCluster(w.cluster())
          .setNode(w.node())
          .setGpu(w.gpu())
          .setUuid(last.getUuid())
          .setSbeRatePerH(shortRate)
          .setSbeRateTrend(trend)
          .setSbeTotal(last.getEccSbeTotal())
          .setDbeTotal(last.getEccDbeTotal())
          .setRetiredPages(last.getRetiredPagesSbe() == null && last.getRetiredPagesDbe() == null ? null
              : nz(last.getRetiredPagesSbe()) + nz(last.getRetiredPagesDbe()))
          .setRowRemapPending(last.getRowRemapPending())
          .setRowRemapFailure(last.getRowRemapFailure())
          .setXidCount((long) xidTimes.size())
          .build();
    }
    return new TickResult(t, wake);
  }

  /**
   * Takes records of the tick ending at {@code tickEnd} (sorted, after any taken before for this
   * tick) without evaluating the tick: a tick may come in slices, the last through {@link #tick}.
   * XID events fire their alert here, into {@code out}.
   */
  public void accept(long tickEnd, List<SpecificRecord> records, Where w, EccConfig cfg, XidCatalog xids,
      AnomalyFactory f, List<Anomaly> out) {
    int n = (int) (cfg.longWindowMs() / cfg.tickMs());
    if (buckets == null) {
      buckets = new long[n];
    }
    advance(tickEnd, cfg, n);
    for (SpecificRecord r : records) {
      if (r instanceof GpuSample s) {
        if (s.getTs() <= lastSampleTs) {
          continue; // duplicate
        }
        tickHadSample = true;
        onSample(s, cfg, w, f, out);
      } else if (r instanceof GpuXid x) {
        onXid(x, cfg, xids, w, f, out);
      }
    }
  }

  private void onSample(GpuSample s, EccConfig cfg, Where w, AnomalyFactory f, List<Anomaly> out) {
    if (firstTs == Long.MIN_VALUE) {
      firstTs = s.getTs();
    }
    long sbe = CounterDelta.delta(lastSbe, s.getEccSbeTotal(), 0, 0);
    if (sbe > 0) {
      buckets[bucket(lastTickEnd, cfg)] += sbe;
    }
    long dbe = CounterDelta.delta(lastDbe, s.getEccDbeTotal(), 0, 0);
    long rdbe = CounterDelta.delta(lastRetiredDbe, s.getRetiredPagesDbe(), 0, 0);
    // the first sample of a GPU with a non-zero DBE count is an increase too (errors since boot)
    if (lastDbe == null && s.getEccDbeTotal() != null && s.getEccDbeTotal() > 0) {
      dbe = s.getEccDbeTotal();
    }
    if (dbe > 0 || rdbe > 0) {
      if (lastDbeIncreaseTs == Long.MIN_VALUE || s.getTs() - lastDbeIncreaseTs >= cfg.dbeQuietMs()) {
        dbeIncrease = 0;
      }
      lastDbeIncreaseTs = s.getTs();
      dbeIncrease += Math.max(dbe, 0) + Math.max(rdbe, 0);
    }
    if (s.getEccSbeTotal() != null) {
      lastSbe = s.getEccSbeTotal();
    }
    if (s.getEccDbeTotal() != null) {
      lastDbe = s.getEccDbeTotal();
    }
    if (s.getRetiredPagesDbe() != null) {
      lastRetiredDbe = s.getRetiredPagesDbe();
    }
    lastSampleTs = s.getTs();
    last = s;
  }

  private void onXid(GpuXid x, EccConfig cfg, XidCatalog xids, Where w, AnomalyFactory f, List<Anomaly> out) {
    String id = x.getAgentSeq() + "/" + x.getXid() + "/" + x.getTs();
    if (seenXids.containsKey(id)) {
      return; // the same event delivered twice (agent retry, replay)
    }
    seenXids.put(id, x.getTs());
    xidTimes.addLast(x.getTs());
    lastXidByCode.put(x.getXid(), x.getTs());
    XidCatalog.Xid meaning = xids.lookup(x.getXid());
    out.add(alerts.fire(xidDraft(f, meaning, w, x), x.getTs()));
  }

  static AnomalyFactory.Draft xidDraft(AnomalyFactory f, XidCatalog.Xid x, Where w, GpuXid event) {
    return gpuLabels(f.alert("GpuXid", x.severity()), w).label("xid", x.code()).context("xid_name", x.mnemonic())
        .summary("XID " + x.code() + " (" + x.description() + ") on " + w.node() + (w.gpu() >= 0 ? " GPU " + w.gpu() : ""))
        .description("XID " + x.code() + " " + x.mnemonic() + ": " + x.description()
            + (event != null ? "; driver message: " + event.getMessage() : "")
            + (x.immediateAction().isEmpty() ? "" : "; NVIDIA's immediate action: " + x.immediateAction())
            + (x.investigatoryAction().isEmpty() ? "" : ", then: " + x.investigatoryAction()))
        .value((double) x.code());
  }

  static AnomalyFactory.Draft gpuLabels(AnomalyFactory.Draft d, Where w) {
    return d.label("cluster", w.cluster()).label("node", w.node()).label("gpu", w.gpu() >= 0 ? w.gpu() : null)
        .context("rack", w.rack());
  }

  /** Moves the ring to the tick ending at {@code tickEnd}, clearing skipped buckets. */
  private void advance(long tickEnd, EccConfig cfg, int n) {
    if (lastTickEnd == Long.MIN_VALUE) {
      lastTickEnd = tickEnd;
      return;
    }
    long steps = (tickEnd - lastTickEnd) / cfg.tickMs();
    for (long i = 1; i <= Math.min(steps, n); i++) {
      buckets[bucket(lastTickEnd + i * cfg.tickMs(), cfg)] = 0;
    }
    lastTickEnd = Math.max(lastTickEnd, tickEnd);
  }

  private int bucket(long tickEnd, EccConfig cfg) {
    return (int) Math.floorMod(tickEnd / cfg.tickMs(), (long) buckets.length);
  }

  /** Corrected errors per hour over the last {@code windowMs} (or the time covered so far). */
  private double rate(long tickEnd, long windowMs, EccConfig cfg) {
    if (firstTs == Long.MIN_VALUE) {
      return 0;
    }
    int k = (int) (windowMs / cfg.tickMs());
    long sum = 0;
    for (int i = 0; i < k; i++) {
      sum += buckets[bucket(tickEnd - i * cfg.tickMs(), cfg)];
    }
    long coveredMs = Math.max(cfg.tickMs(), Math.min(windowMs, tickEnd - (firstTs - Math.floorMod(firstTs, cfg.tickMs()))));
    return sum / (coveredMs / 3_600_000.0);
  }

  private static long nz(Long v) {
    return v == null ? 0 : v;
  }

  private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
    out.defaultWriteObject();
    if (buckets == null) {
      VarInts.writeVarLong(out, 0);
      return;
    }
    VarInts.writeVarLong(out, buckets.length + 1L);
    int nonZero = 0;
    for (long b : buckets) {
      nonZero += b != 0 ? 1 : 0;
    }
    VarInts.writeVarLong(out, nonZero);
    for (int i = 0; i < buckets.length; i++) {
      if (buckets[i] != 0) {
        VarInts.writeVarLong(out, i);
        VarInts.writeVarLong(out, VarInts.zigzag(buckets[i]));
      }
    }
  }

  private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
    in.defaultReadObject();
    long n = VarInts.readVarLong(in) - 1;
    if (n < 0) {
      return;
    }
    if (n > 10_000_000) {
      throw new java.io.StreamCorruptedException("ECC state: " + n + " buckets");
    }
    buckets = new long[(int) n];
    long nonZero = VarInts.readVarLong(in);
    for (long k = 0; k < nonZero; k++) {
      long i = VarInts.readVarLong(in);
      if (i < 0 || i >= n) {
        throw new java.io.StreamCorruptedException("ECC state: bucket " + i + " of " + n);
      }
      buckets[(int) i] = VarInts.unzigzag(VarInts.readVarLong(in));
    }
  }
}
