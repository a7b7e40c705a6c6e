package io.fleetscope.sink.export;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every bundle-writing command shares. */
public final class BundleOptions {
  @Option(names = "--analytics-config", paramLabel = "FILE.yaml",
      description = "the analytics settings the running pipeline uses, recorded in the bundle"
          + " (default: none recorded: the built-in settings of the manifest's FleetScope version)")
  Path analyticsConfig;

  @Option(names = "--correlator-config", paramLabel = "FILE.yaml",
      description = "the correlator settings the running pipeline uses (section correlator:), recorded in the bundle"
          + " (default: none recorded: the built-in settings of the manifest's FleetScope version)")
  Path correlatorConfig;

  /** The analytics settings file's text, or null when none was named. */
  public String analyticsConfigText() {
    return read("--analytics-config", analyticsConfig);
  }

  /** The correlator settings file's text, or null when none was named. */
  public String correlatorConfigText() {
    return read("--correlator-config", correlatorConfig);
  }

  private static String read(String flag, Path file) {
    if (file == null) {
      return null;
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + flag + " " + file + ": " + e.getMessage(), e);
    }
  }
}
