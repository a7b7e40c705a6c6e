package io.fleetscope.schemas.bundle;

import java.util.Locale;

/** Where the records of a bundle file were read from. */
public enum RecordSource {
  /** the Kafka topic, while the broker still retained the range */
  KAFKA,
  /** the TimescaleDB tables, once Kafka no longer retains the range (or when asked) */
  TIMESCALEDB,
  /** the fleet simulator, with its ground-truth labels */
  SIMULATOR,
  /** a file of this bundle that no record source produced (labels, settings) */
  FILE;

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static RecordSource parse(String s) {
    try {
      return valueOf(s.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown source '" + s + "'");
    }
  }
}
