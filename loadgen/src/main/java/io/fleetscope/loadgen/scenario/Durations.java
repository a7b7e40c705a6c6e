package io.fleetscope.loadgen.scenario;

import io.fleetscope.schemas.cli.DurationSyntax;
import java.time.Duration;

/**
 * Durations in scenario files: a YAML number is seconds ({@code start: 90}), a string is written
 * the way every FleetScope command line writes one ({@link DurationSyntax}: {@code 500ms},
 * {@code 90s}, {@code 5m}, {@code 1h30m}).
 */
public final class Durations {
  private Durations() {}

  /** Parses a duration string in the one syntax; throws IllegalArgumentException naming it otherwise. */
  public static Duration parse(String text) {
    return DurationSyntax.parse(text == null ? null : text.trim());
  }

  /** A scenario value: a number of seconds, or a duration string. */
  public static Duration of(Object value) {
    if (value instanceof Number n) {
      return Duration.ofMillis(Math.round(n.doubleValue() * 1000));
    }
    return parse(value == null ? null : value.toString());
  }
}
