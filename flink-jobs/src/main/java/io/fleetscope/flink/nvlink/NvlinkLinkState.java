package io.fleetscope.flink.nvlink;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import java.io.Serializable;

/**
 * Whether one NVLink link that should be up is down, decided per sample as it arrives (pure; no
 * Flink): the NVLink analytic's fast path, like IbLinkDown's {@code PortLinkState}. A link "should
 * be up" when its index is below the GPU's expected link count (inventory, else the model table),
 * or when it was seen active before (a link that was up and went inactive is down whatever the
 * model). NvlinkDown (critical) fires on the first sample that shows such a link inactive and
 * resolves on the first sample that shows it active. A sample without a state (an error-counter
 * source) decides nothing; one older than the newest seen is ignored. Traffic does not matter: an
 * idle link (a job ended) is still active.
 */
public final class NvlinkLinkState implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String ALERT = "NvlinkDown";

  private long lastTs = Long.MIN_VALUE;
  private boolean seenActive;
  private final AlertTracker alerts = new AlertTracker();

  /** 1 active, 2 inactive, 0 not said: what decisions depend on. */
  public static long stateCode(NvlinkSample s) {
    if (s.getState() == null) {
      return 0;
    }
    return "active".equalsIgnoreCase(s.getState()) ? 1 : "inactive".equalsIgnoreCase(s.getState()) ? 2 : 0;
  }

  public boolean firing() {
    return alerts.firingCount() > 0;
  }

  /**
   * @param expectedLinks links the GPU should have up (inventory or model table), or null when unknown
   * @param rack the node's rack when known (context label), else null
   * @return the transition (firing or resolved), or null
   */
  public Anomaly onSample(NvlinkSample s, Integer expectedLinks, String rack, AnomalyFactory f) {
    long code = stateCode(s);
    if (s.getTs() <= lastTs || code == 0) {
      return null;
    }
    lastTs = s.getTs();
    boolean active = code == 1;
    boolean expected = (expectedLinks != null && s.getLink() < expectedLinks) || seenActive;
    if (active) {
      seenActive = true;
    }
    boolean down = !active && expected;
    return alerts.update(() -> f.alert(ALERT, "critical").label("cluster", s.getCluster()).label("node", s.getNode())
            .label("gpu", s.getGpu()).label("link", s.getLink()).context("rack", rack),
        down, s.getTs(), d -> {
          String where = s.getNode() + " GPU " + s.getGpu() + " NVLink " + s.getLink();
          d.summary("NVLink down on " + where)
              .description("link " + s.getLink() + " of GPU " + s.getGpu() + " (" + s.getUuid() + ") on " + s.getNode()
                  + " in cluster " + s.getCluster() + " is inactive"
                  + (expectedLinks != null ? "; the GPU should have " + expectedLinks + " links up" : "; it was active before")
                  + ": collectives over NVLink lose bandwidth or fail on this GPU")
              .value(0.0);
        });
  }
}
