package io.fleetscope.flink.peer;

import java.io.Serializable;

/**
 * One metric compared between peers.
 *
 * @param name metric label value, e.g. temp_c, sm_clock_mhz, power_w, tx_gbps, xmit_wait_per_s
 * @param direction which departure is a fault: HIGH (hotter than peers), LOW (slower than peers) or BOTH
 * @param madFloor smallest MAD used, in the metric's unit (noise level)
 * @param minAbsDelta a member must also differ from the median by at least this much
 */
public record PeerMetric(String name, Direction direction, double madFloor, double minAbsDelta) implements Serializable {
  public enum Direction { HIGH, LOW, BOTH }

  public PeerMetric {
    if (!(madFloor > 0) || minAbsDelta < 0) {
      throw new IllegalArgumentException("peer metric " + name + ": mad_floor must be > 0 and min_abs_delta >= 0");
    }
  }

  /** True when z (and the absolute departure) are outside the limits in the faulty direction. */
  boolean departs(double z, double delta, double zThreshold) {
    return departs(z, delta, zThreshold, 1.0);
  }

  /**
   * True when a departing member is clearly back among its peers: its z-score and its departure
   * both within their limits shrunk by {@code resolveMargin} (a fraction), so a member hovering at
   * the limit does not count as back.
   */
  boolean clearlyBack(double z, double delta, double zThreshold, double resolveMargin) {
    return !departs(z, delta, zThreshold, 1 - resolveMargin);
  }

  private boolean departs(double z, double delta, double zThreshold, double scale) {
    double zLimit = zThreshold * scale;
    if (Math.abs(delta) < minAbsDelta * scale) {
      return false;
    }
    return switch (direction) {
      case HIGH -> z >= zLimit;
      case LOW -> z <= -zLimit;
      case BOTH -> Math.abs(z) >= zLimit;
    };
  }
}
