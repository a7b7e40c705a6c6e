package io.fleetscope.streams;

import io.fleetscope.schemas.contract.AlertStatus;
import java.time.Instant;
import java.util.Map;

/**
 * One alert as it goes to Alertmanager or a webhook receiver.
 *
 * @param endsAt for a firing alert: when Alertmanager should consider it resolved unless re-sent;
 *     for a resolved alert: when it ended
 */
public record OutboundAlert(String fingerprint, String status, Map<String, String> labels, Map<String, String> annotations,
                            Instant startsAt, Instant endsAt, String generatorUrl) {
  public boolean firing() {
    return AlertStatus.isFiring(status);
  }
}
