package io.fleetscope.schemas.bundle;

import java.util.Locale;

/** What a file of a bundle holds. Raw and state records are what a replay publishes; the rest is what they produced. */
public enum BundleRole {
  /** telemetry as the agents sent it */
  RAW,
  /** inventory and job allocations as of the start of the range, then their changes inside it */
  STATE,
  /** the analytics' derived streams (rail bandwidth, thermal risk, ECC trend, checkpoint SLO) */
  DERIVED,
  /** the analytics' anomalies */
  ANOMALIES,
  /** the correlator's incident versions (every state change of every incident in scope) */
  ALERTS,
  /** records refused by the pipeline, with their reason */
  DEAD_LETTERS,
  /** the simulator's ground-truth labels (JSON lines), when the bundle was written by the simulator */
  LABELS,
  /** the analytics settings that produced the derived records and anomalies (YAML) */
  CONFIG;

  /** Whether a replay publishes this role's records (what the pipeline reads, not what it wrote). */
  public boolean isInput() {
    return this == RAW || this == STATE;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static BundleRole parse(String s) {
    try {
      return valueOf(s.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown role '" + s + "'");
    }
  }
}
