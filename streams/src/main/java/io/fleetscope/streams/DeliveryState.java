package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import io.fleetscope.schemas.contract.AlertStatus;
import java.util.Map;

/**
 * What the correlator owes a sink for one incident, kept in the {@code deliveries} store until
 * the sink has acknowledged it: the latest version, and the latest version the sink acknowledged.
 * A resolved incident is removed only once its resolution was acknowledged, so a resolution is
 * never lost across sink outages or correlator restarts.
 */
public record DeliveryState(
    String fingerprint,
    String status,
    long version,
    Map<String, String> labels,
    Map<String, String> annotations,
    long startsAtMs,
    Long endsAtMs,
    long deliveredVersion,
    long lastSentMs,
    long resolvedAckMs) {

  static DeliveryState of(Alert a, DeliveryState previous) {
    return new DeliveryState(a.getFingerprint(), a.getStatus(), a.getVersion() == null ? 0 : a.getVersion(),
        Map.copyOf(a.getLabels()), Map.copyOf(a.getAnnotations()), a.getStartsAt(), a.getEndsAt(),
        previous == null ? -1 : previous.deliveredVersion(), previous == null ? 0 : previous.lastSentMs(), 0);
  }

  boolean firing() {
    return AlertStatus.isFiring(status);
  }

  /**
   * Whether it must be sent at {@code now}: a version not yet acknowledged, or an acknowledged one due for
   * its periodic re-send (firing alerts until they resolve, resolutions during the resolved re-send window).
   */
  boolean due(long now, long resendMs) {
    return deliveredVersion < version || now - lastSentMs >= resendMs;
  }

  /** Whether the sink acknowledged the latest version. */
  boolean acknowledged() {
    return deliveredVersion >= version;
  }

  /** A resolution acknowledged longer ago than {@code windowMs}: nothing more to send. */
  boolean done(long now, long windowMs) {
    return !firing() && acknowledged() && resolvedAckMs > 0 && now - resolvedAckMs >= windowMs;
  }

  DeliveryState acknowledged(long ackVersion, long sentAtMs) {
    long v = Math.max(deliveredVersion, ackVersion);
    long resolvedAck = !firing() && v >= version && resolvedAckMs == 0 ? sentAtMs : resolvedAckMs;
    return new DeliveryState(fingerprint, status, version, labels, annotations, startsAtMs, endsAtMs, v, sentAtMs, resolvedAck);
  }
}
