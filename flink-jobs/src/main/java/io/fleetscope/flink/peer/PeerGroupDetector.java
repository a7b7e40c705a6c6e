package io.fleetscope.flink.peer;

import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.Hysteresis;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Peer comparison for one peer group (one job, one rack and model, one rail) over successive
 * windows. A member departs in a window when its robust z-score against the group (and its
 * absolute difference from the median) passes the metric's limits; after
 * {@code sustain_windows} consecutive departing windows the alert fires. It resolves with
 * hysteresis ({@link Hysteresis}): once the member has been clearly back among its peers (z-score
 * and departure {@code resolve_margin_pct} inside their limits) for {@code resolve_hold_s}
 * (consecutive windows); a member hovering at the limit stays one alert. A window in which a member
 * has no value leaves its state unchanged. Groups smaller than {@code min_peers} are not compared.
 */
public final class PeerGroupDetector implements Serializable {
  /** The value Java derived before it was declared: savepoints of earlier versions restore. */
  private static final long serialVersionUID = 6269480581526127960L;
  private final String alertname;
  private final PeerOutlierSettings cfg;
  /** metric -> member -> consecutive departing windows (negative never). */
  private final Map<String, Map<String, Integer>> streak = new TreeMap<>();
  /** metric -> member -> firing: the state of savepoints written before {@link #states} (read once, in readObject). */
  private final Map<String, Map<String, Boolean>> firing = new TreeMap<>();
  /** metric -> member -> firing state with its resolve hold (members not firing have none). */
  private Map<String, Map<String, Hysteresis>> states = new TreeMap<>();

  public PeerGroupDetector(String alertname, PeerOutlierSettings cfg) {
    this.alertname = alertname;
    this.cfg = cfg;
  }

  /**
   * Evaluates one window of one metric.
   *
   * @param metric the metric
   * @param values member -> mean value in the window
   * @param memberLabels member -> labels identifying it (cluster, node, gpu or device/port, ...)
   * @param groupLabel description of the group, e.g. {@code job=llm-7 model=H100} or {@code rack=R1 model=H100}
   * @param windowEnd event time of the window's end
   */
  public List<AlertChange> onWindow(PeerMetric metric, Map<String, Double> values,
      Map<String, Map<String, String>> memberLabels, String groupLabel, long windowEnd) {
    List<AlertChange> out = new ArrayList<>();
    if (values.size() < cfg.minPeers()) {
      return out;
    }
    RobustZ rz = RobustZ.of(values.values(), metric.madFloor());
    Map<String, Integer> s = streak.computeIfAbsent(metric.name(), k -> new HashMap<>());
    Map<String, Hysteresis> f = states.computeIfAbsent(metric.name(), k -> new HashMap<>());
    for (Map.Entry<String, Double> e : new TreeMap<>(values).entrySet()) {
      String member = e.getKey();
      double x = e.getValue();
      double z = rz.z(x);
      boolean departs = metric.departs(z, x - rz.median(), cfg.zThreshold());
      int n = departs ? s.getOrDefault(member, 0) + 1 : 0;
      if (n == 0) {
        s.remove(member);
      } else {
        s.put(member, Math.min(n, cfg.sustainWindows()));
      }
      boolean back = metric.clearlyBack(z, x - rz.median(), cfg.zThreshold(), cfg.resolveMarginPct() / 100.0);
      Hysteresis h = f.get(member);
      if (h == null && n < cfg.sustainWindows()) {
        continue; // not firing and not about to: no state kept for the member
      }
      if (h == null) {
        h = new Hysteresis();
        f.put(member, h);
      }
      switch (h.update(n >= cfg.sustainWindows(), back, windowEnd, cfg.resolveHoldMs())) {
        case FIRE -> out.add(change(true, metric, member, x, z, rz.median(), memberLabels.get(member), groupLabel,
            values.size()));
        case RESOLVE -> {
          f.remove(member);
          out.add(change(false, metric, member, x, z, rz.median(), memberLabels.get(member), groupLabel, values.size()));
        }
        case NONE -> { }
      }
    }
    return out;
  }

  /** Members currently firing for a metric (for tests and state-size checks). */
  public int firingCount() {
    return states.values().stream().mapToInt(Map::size).sum();
  }

  /** A savepoint of an earlier version knows only which members fire: they fire on, with no hold begun. */
  private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
    in.defaultReadObject();
    if (states == null) {
      states = new TreeMap<>();
      firing.forEach((metric, members) -> members.forEach((member, on) -> {
        if (Boolean.TRUE.equals(on)) {
          states.computeIfAbsent(metric, k -> new HashMap<>()).put(member, Hysteresis.restored(true));
        }
      }));
      firing.clear();
    }
  }

  private AlertChange change(boolean fire, PeerMetric metric, String member, double x, double z, double median,
      Map<String, String> labels, String groupLabel, int peers) {
    Map<String, String> l = new LinkedHashMap<>(labels == null ? Map.of("member", member) : labels);
    l.put("metric", metric.name());
    l.put("peer_group", groupLabel);
    String summary = (fire ? "" : "no longer ") + "outlier among its peers: " + member + " " + metric.name();
    String description = String.format(Locale.ROOT,
        "%s %.2f vs peer median %.2f (robust z %.1f, threshold %.1f, %d peers in %s, %d windows of %d s)",
        metric.name(), x, median, z, cfg.zThreshold(), peers, groupLabel,
        fire ? cfg.sustainWindows() : 1 + cfg.resolveHoldS() / Math.max(1, cfg.windowS()), cfg.windowS());
    return new AlertChange(alertname, "warning", fire, Math.round(z * 1000) / 1000.0, l,
        Character.toUpperCase(summary.charAt(0)) + summary.substring(1), description);
  }
}
