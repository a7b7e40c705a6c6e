package io.fleetscope.schemas.contract;

/**
 * The {@code status} of an anomaly ({@code fleet.anomalies.v1}) or incident ({@code fleet.alerts.v1}):
 * {@value #FIRING} once when a condition starts, {@value #RESOLVED} once when it clears. These are also
 * the values Alertmanager uses, so they pass through to it unchanged.
 */
public final class AlertStatus {
  public static final String FIRING = "firing";
  public static final String RESOLVED = "resolved";

  private AlertStatus() {}

  /** Whether {@code status} is {@value #FIRING}. */
  public static boolean isFiring(String status) {
    return FIRING.equals(status);
  }

  /** Whether {@code status} is {@value #RESOLVED}. */
  public static boolean isResolved(String status) {
    return RESOLVED.equals(status);
  }

  /** Whether {@code status} is one of the two values a record may carry. */
  public static boolean isValid(String status) {
    return isFiring(status) || isResolved(status);
  }
}
