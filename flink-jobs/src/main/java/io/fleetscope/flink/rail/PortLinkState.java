package io.fleetscope.flink.rail;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.io.Records;
import java.io.Serializable;
import java.util.Locale;
import java.util.Set;

/**
 * Whether one HCA port is up, decided per sample as it arrives (pure; no Flink): the rail
 * analytic's fast path. IbLinkDown (critical) fires on the first sample whose state is not ACTIVE
 * or whose phys_state is not LinkUp and resolves on the first sample that shows the link up again;
 * same labels and texts as the windowed {@link PortAnalyzer}, which no longer emits it. A sample
 * older than the newest seen is ignored.
 */
public final class PortLinkState implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The alerts this class decides (the windowed port analysis drops its own of these names). */
  public static final Set<String> ALERTS = Set.of("IbLinkDown");

  private long lastTs = Long.MIN_VALUE;
  private final AlertTracker alerts = new AlertTracker();

  /** Whether a sample shows the link down (as {@link PortAnalyzer} decides it for a window's last sample). */
  public static boolean down(IbPortSample s) {
    String phys = s.getPhysState();
    return !Records.portActive(s.getState())
        || (phys != null && !phys.toLowerCase(Locale.ROOT).replace(" ", "").contains("linkup"));
  }

  public boolean firing() {
    return alerts.firingCount() > 0;
  }

  /**
   * @param rack the node's rack when known (context label), else null
   * @return the transition (firing or resolved), or null
   */
  public Anomaly onSample(IbPortSample s, String rack, AnomalyFactory f) {
    if (s.getTs() <= lastTs) {
      return null; // a duplicate or an older sample: the newer one already decided
    }
    lastTs = s.getTs();
    int rail = s.getRail() == null ? -1 : s.getRail();
    return alerts.update(() -> f.alert("IbLinkDown", "critical").label("cluster", s.getCluster()).label("node", s.getNode())
            .label("device", s.getDevice()).label("port", s.getPort()).label("rail", rail >= 0 ? rail : null)
            .context("rack", rack),
        down(s), s.getTs(), d -> {
          String where = s.getNode() + " " + s.getDevice() + " port " + s.getPort() + (rail >= 0 ? " (rail " + rail + ")" : "");
          d.summary("IB link down on " + where)
              .description("state=" + s.getState() + " phys_state=" + s.getPhysState() + " on " + where + " in cluster "
                  + s.getCluster() + ": traffic of this rail moves to the remaining ports or the job stalls")
              .value(0.0);
        });
  }
}
