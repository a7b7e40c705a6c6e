package io.fleetscope.flink.rail;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.Hysteresis;
import io.fleetscope.flink.core.Threshold;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per cluster and window (pure; no Flink): per-rail tx/rx Gb/s, utilisation against the line rate
 * of the rail's ports, ports up/total, degraded ports, the imbalance of each rail against the mean
 * of the cluster's rails, and RailImbalance when a rail carries more than
 * {@code imbalance_fraction} less than the mean for {@code imbalance_windows} windows while the
 * fabric is busy. It resolves with hysteresis ({@link Hysteresis}): once the rail has stayed within
 * {@code imbalance_fraction} less {@code resolve_margin_pct} of the mean (or the fabric idle) for
 * {@code resolve_hold_ms}.
 */
public final class RailAggregator implements Serializable {
  private static final long serialVersionUID = 1L;

  private final HashMap<Integer, Integer> lowWindows = new HashMap<>();
  private final AlertTracker alerts = new AlertTracker();
  /** rail -> hysteresis of its RailImbalance; null in a state restored from before it. */
  private HashMap<Integer, Hysteresis> imbalanceStates = new HashMap<>();

  public List<RailBandwidth> window(String cluster, long windowEnd, List<PortWindow> ports, RailConfig cfg,
      AnomalyFactory f, List<Anomaly> anomalies) {
    double seconds = cfg.windowMs() / 1000.0;
    TreeMap<Integer, List<PortWindow>> byRail = new TreeMap<>();
    for (PortWindow p : ports) {
      if (p.rail >= 0) {
        byRail.computeIfAbsent(p.rail, r -> new ArrayList<>()).add(p);
      }
    }
    List<RailBandwidth> out = new ArrayList<>();
    for (Map.Entry<Integer, List<PortWindow>> e : byRail.entrySet()) {
      long tx = 0;
      long rx = 0;
      double line = 0;
      int up = 0;
      List<String> degraded = new ArrayList<>();
      for (PortWindow p : e.getValue()) {
        tx += p.txBytes;
        rx += p.rxBytes;
        line += p.lineRateGbps;
        up += p.up ? 1 : 0;
        if (p.degraded) {
          degraded.add(p.portId());
        }
      }
      degraded.sort(null);
      double txG = tx * 8 / seconds / 1e9;
      double rxG = rx * 8 / seconds / 1e9;
      out.add(RailBandwidth.newBuilder()
          .setTs(windowEnd)
          .setWindowStart(windowEnd - cfg.windowMs())
          .setWindowEnd(windowEnd)
          .setCluster(cluster)
          .setRail(e.getKey())
          .setTxGbps(txG)
          .setRxGbps(rxG)
          .setLineRateGbps(line)
          .setUtilisation(line > 0 ? Math.max(txG, rxG) / line : 0.0)
          .setPortsUp(up)
          .setPortsTotal(e.getValue().size())
          .setDegradedPorts(degraded)
          .build());
    }
    if (out.isEmpty()) {
      return out;
    }
    double mean = out.stream().mapToDouble(r -> Math.max(r.getTxGbps(), r.getRxGbps())).average().orElse(0);
    double meanUtil = out.stream().mapToDouble(RailBandwidth::getUtilisation).average().orElse(0);
    if (imbalanceStates == null) {
      imbalanceStates = new HashMap<>();
    }
    Threshold limit = Threshold.below(-cfg.imbalanceFraction(), cfg.resolveMargin(), cfg.resolveHoldMs());
    for (RailBandwidth r : out) {
      double t = Math.max(r.getTxGbps(), r.getRxGbps());
      Double imb = mean > 0 ? t / mean - 1 : null;
      r.setImbalance(imb);
      boolean compared = out.size() > 1 && imb != null && meanUtil >= cfg.imbalanceMinUtilisation();
      boolean low = compared && limit.breached(imb);
      int n = low ? lowWindows.getOrDefault(r.getRail(), 0) + 1 : 0;
      lowWindows.put(r.getRail(), n);
      final int windows = n;
      final double meanF = mean;
      final int rails = out.size();
      AnomalyFactory.Draft draft = f.alert("RailImbalance", "warning").label("cluster", cluster).label("rail", r.getRail());
      Hysteresis h = imbalanceStates.get(r.getRail());
      if (h == null) {
        h = Hysteresis.restored(alerts.firingCount() > 0 && alerts.isFiring(draft));
        imbalanceStates.put(r.getRail(), h);
      }
      h.update(n >= cfg.imbalanceWindows(), !compared || limit.clear(imb), windowEnd, cfg.resolveHoldMs());
      anomalies.add(alerts.update(draft, h.firing(), windowEnd, d -> d
          .summary("rail " + r.getRail() + " of cluster " + cluster + " carries less than its peers")
          .description(String.format(Locale.ROOT,
              "rail %d moves %.1f Gb/s, %.0f%% below the mean of %d rails (%.1f Gb/s) for %d windows of %.0f s; "
                  + "ports up %d/%d, degraded %s: collectives run at the pace of the slowest rail",
              r.getRail(), t, imb == null ? 0 : -imb * 100, rails, meanF, windows, seconds,
              r.getPortsUp(), r.getPortsTotal(), r.getDegradedPorts()))
          .value(imb)));
    }
    anomalies.removeIf(a -> a == null);
    return out;
  }
}
