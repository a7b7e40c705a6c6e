package io.fleetscope.stack.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What deploy/local/install.sh installed next to the test PostgreSQL: the newest TimescaleDB library
 * (which {@code CREATE EXTENSION} loads) and whether its TSL part is there, so that tests expect the
 * edition and version the machine has instead of one release.
 */
final class InstalledTimescale {
  private static final Pattern LIB = Pattern.compile("timescaledb-(\\d+)\\.(\\d+)\\.(\\d+)\\.so");

  private InstalledTimescale() {}

  /** The newest {@code timescaledb-X.Y.Z.so} in PostgreSQL's library directory, as {@code X.Y.Z}. */
  static String newestVersion() {
    Path lib = Path.of(LocalPostgres.DEFAULT_BIN).getParent().resolve("lib");
    try (Stream<Path> files = Files.list(lib)) {
      return files.map(f -> LIB.matcher(f.getFileName().toString()))
          .filter(Matcher::matches)
          .max(Comparator.<Matcher>comparingInt(m -> Integer.parseInt(m.group(1)))
              .thenComparingInt(m -> Integer.parseInt(m.group(2)))
              .thenComparingInt(m -> Integer.parseInt(m.group(3))))
          .map(m -> m.group(1) + "." + m.group(2) + "." + m.group(3))
          .orElseThrow(() -> new IllegalStateException("no timescaledb-X.Y.Z.so in " + lib + ": run deploy/local/install.sh"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The license a cluster that does not set one runs under: the community edition's when it is built. */
  static String defaultLicense() {
    return TestServices.communityEditionInstalled() ? "timescale" : "apache";
  }
}
