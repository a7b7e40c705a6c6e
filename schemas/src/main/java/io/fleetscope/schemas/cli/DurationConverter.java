package io.fleetscope.schemas.cli;

import java.time.Duration;
import picocli.CommandLine;

/** Reads a {@link Duration} option in the {@link DurationSyntax} ({@code 500ms}, {@code 5s}, {@code 10m}, {@code 1h}). */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return DurationSyntax.parse(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
