package io.fleetscope.streams;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.schemas.contract.AlertStatus;
import java.util.Optional;

/** Checks an anomaly record before the correlator keeps state for it. */
public final class AnomalyValidator {
  private AnomalyValidator() {}

  /** Why {@code a} cannot be correlated, or empty when it is fine. */
  public static Optional<String> problem(Anomaly a) {
    if (a.getFingerprint() == null || a.getFingerprint().isBlank()) {
      return Optional.of("empty fingerprint");
    }
    String status = a.getStatus();
    if (!AlertStatus.isValid(status)) {
      return Optional.of("status '" + status + "' is neither firing nor resolved");
    }
    if (a.getLabels() == null || blank(a.getLabels().get(AlertLabels.ALERTNAME))) {
      return Optional.of("missing label alertname");
    }
    if (blank(a.getLabels().get(AlertLabels.CLUSTER))) {
      return Optional.of("missing label cluster");
    }
    if (a.getStartsAt() <= 0) {
      return Optional.of("starts_at " + a.getStartsAt() + " is not an epoch-ms time");
    }
    if (a.getEndsAt() != null && a.getEndsAt() < a.getStartsAt()) {
      return Optional.of("ends_at " + a.getEndsAt() + " is before starts_at " + a.getStartsAt());
    }
    return Optional.empty();
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
