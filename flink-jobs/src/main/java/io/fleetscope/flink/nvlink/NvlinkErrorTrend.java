package io.fleetscope.flink.nvlink;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.Hysteresis;
import java.io.Serializable;
import java.util.ArrayDeque;

/**
 * The error-rate trend of one NVLink link (pure; no Flink). The link's error counters (CRC FLIT,
 * CRC data, CRC as nvidia-smi prints it, replay, recovery: whichever the source gives, summed) are
 * raw; the rate is their growth over the sliding window {@code error_window_ms}, from the oldest
 * sample still inside it (at least half a window of samples is needed). A counter that goes down
 * (a reset, {@code nvidia-smi nvlink -re}, a driver reload) restarts the window. NvlinkErrorsRising
 * (warning) fires when the rate reaches {@code errors_per_min} and resolves, with hysteresis, once
 * it stayed below {@code errors_per_min * errors_clear_fraction} for {@code errors_clear_hold_ms}.
 */
public final class NvlinkErrorTrend implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String ALERT = "NvlinkErrorsRising";

  /** Samples inside the window: {ts, errors}; at most one per tenth of the window, plus the newest. */
  private final ArrayDeque<long[]> points = new ArrayDeque<>();
  private long lastTs = Long.MIN_VALUE;
  private final Hysteresis hysteresis = new Hysteresis();
  private final AlertTracker alerts = new AlertTracker();

  /** The sum of the error counters the sample has, or -1 when it has none. */
  public static long errors(NvlinkSample s) {
    long sum = 0;
    boolean any = false;
    for (Long v : new Long[] {s.getCrcFlitErrors(), s.getCrcDataErrors(), s.getCrcErrors(), s.getReplayErrors(), s.getRecoveryErrors()}) {
      if (v != null) {
        sum += v;
        any = true;
      }
    }
    return any ? sum : -1;
  }

  public boolean firing() {
    return hysteresis.firing();
  }

  /** The errors per minute over the window at the newest sample, or NaN when the window holds too little. */
  double ratePerMin(long windowMs) {
    if (points.size() < 2) {
      return Double.NaN;
    }
    long[] first = points.peekFirst();
    long[] last = points.peekLast();
    long span = last[0] - first[0];
    if (span < windowMs / 2) {
      return Double.NaN;
    }
    return (last[1] - first[1]) * 60_000.0 / span;
  }

  /** @return the transition (firing or resolved), or null */
  public Anomaly onSample(NvlinkSample s, NvlinkSettings c, String rack, AnomalyFactory f) {
    long e = errors(s);
    if (s.getTs() <= lastTs || e < 0) {
      return null;
    }
    lastTs = s.getTs();
    long[] newest = points.peekLast();
    if (newest != null && e < newest[1]) {
      points.clear(); // a counter reset: start the window over
    }
    long bucket = Math.max(1, c.errorWindowMs() / 10);
    if (points.size() >= 2) {
      long[] prev = points.peekLast();
      long[] beforePrev = secondLast();
      if (prev[0] - beforePrev[0] < bucket) {
        points.pollLast(); // keep one point per bucket: the newest replaces a too-close one
      }
    }
    points.addLast(new long[] {s.getTs(), e});
    while (points.size() > 2 && points.peekLast()[0] - secondOldest()[0] >= c.errorWindowMs()) {
      points.pollFirst();
    }
    double rate = ratePerMin(c.errorWindowMs());
    if (Double.isNaN(rate)) {
      return null;
    }
    double limit = c.errorsPerMin();
    Hysteresis.Change change = hysteresis.update(rate >= limit, rate < limit * c.errorsClearFraction(), s.getTs(),
        c.errorsClearHoldMs());
    if (change == Hysteresis.Change.NONE) {
      return null;
    }
    boolean fire = change == Hysteresis.Change.FIRE;
    return alerts.update(f.alert(ALERT, "warning").label("cluster", s.getCluster()).label("node", s.getNode())
            .label("gpu", s.getGpu()).label("link", s.getLink()).context("rack", rack),
        fire, s.getTs(), d -> {
          boolean allLinks = s.getLink() < 0; // a source's total over the GPU's links (dcgm-exporter *_TOTAL)
          String where = s.getNode() + " GPU " + s.getGpu() + (allLinks ? " NVLinks (all links)" : " NVLink " + s.getLink());
          d.summary(String.format(java.util.Locale.ROOT, "NVLink errors rising on %s: %.1f/min", where, rate))
              .description(String.format(java.util.Locale.ROOT,
                  "CRC/replay/recovery errors of %s of GPU %d on %s grew %.1f per minute over the last %d s "
                      + "(limit %.1f/min): a marginal link retries until it drops; check the GPU's baseboard and NVSwitch tray",
                  allLinks ? "the links (the source reports them together)" : "link " + s.getLink(), s.getGpu(), s.getNode(), rate,
                  c.errorWindowMs() / 1000, limit))
              .value(rate);
        });
  }

  private long[] secondLast() {
    var it = points.descendingIterator();
    it.next();
    return it.next();
  }

  private long[] secondOldest() {
    var it = points.iterator();
    it.next();
    return it.next();
  }
}
