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

  /** The settings file's text, or null when none was named. */
  public String analyticsConfigText() {
    if (analyticsConfig == null) {
      return null;
    }
    try {
      return Files.readString(analyticsConfig, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read --analytics-config " + analyticsConfig + ": " + e.getMessage(), e);
    }
  }
}
