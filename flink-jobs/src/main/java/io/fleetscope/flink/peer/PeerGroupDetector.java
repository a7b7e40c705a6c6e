package io.fleetscope.flink.peer;

import io.fleetscope.flink.core.AlertChange;
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
 * {@code sustain_windows} consecutive departing windows the alert fires, and the first window in
 * which the member no longer departs resolves it. A window in which a member has no value leaves
 * its state unchanged. Groups smaller than {@code min_peers} are not compared.
 */
public final class PeerGroupDetector implements Serializable {
  private final String alertname;
  private final PeerOutlierSettings cfg;
  /** metric -> member -> consecutive departing windows (negative never). */
  private final Map<String, Map<String, Integer>> streak = new TreeMap<>();
  /** metric -> member -> firing. */
  private final Map<String, Map<String, Boolean>> firing = new TreeMap<>();

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
   * @param groupLabel description of the group, e.g. {@code job=llm-7} or {@code rack=R1 model=H100}
   */
  public List<AlertChange> onWindow(PeerMetric metric, Map<String, Double> values,
      Map<String, Map<String, String>> memberLabels, String groupLabel) {
    List<AlertChange> out = new ArrayList<>();
    if (values.size() < cfg.minPeers()) {
      return out;
    }
    RobustZ rz = RobustZ.of(values.values(), metric.madFloor());
    Map<String, Integer> s = streak.computeIfAbsent(metric.name(), k -> new HashMap<>());
    Map<String, Boolean> f = firing.computeIfAbsent(metric.name(), k -> new HashMap<>());
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
      boolean was = f.getOrDefault(member, false);
      if (!was && n >= cfg.sustainWindows()) {
        f.put(member, true);
        out.add(change(true, metric, member, x, z, rz.median(), memberLabels.get(member), groupLabel, values.size()));
      } else if (was && !departs) {
        f.remove(member);
        out.add(change(false, metric, member, x, z, rz.median(), memberLabels.get(member), groupLabel, values.size()));
      }
    }
    return out;
  }

  /** Members currently firing for a metric (for tests and state-size checks). */
  public int firingCount() {
    return firing.values().stream().mapToInt(Map::size).sum();
  }

  private AlertChange change(boolean fire, PeerMetric metric, String member, double x, double z, double median,
      Map<String, String> labels, String groupLabel, int peers) {
    Map<String, String> l = new LinkedHashMap<>(labels == null ? Map.of("member", member) : labels);
    l.put("metric", metric.name());
    l.put("peer_group", groupLabel);
    String summary = (fire ? "" : "no longer ") + "outlier among its peers: " + member + " " + metric.name();
    String description = String.format(Locale.ROOT,
        "%s %.2f vs peer median %.2f (robust z %.1f, threshold %.1f, %d peers in %s, %d windows of %d s)",
        metric.name(), x, median, z, cfg.zThreshold(), peers, groupLabel, cfg.sustainWindows(), cfg.windowS());
    return new AlertChange(alertname, "warning", fire, Math.round(z * 1000) / 1000.0, l,
        Character.toUpperCase(summary.charAt(0)) + summary.substring(1), description);
  }
}
