package io.fleetscope.agent.testing;

import io.fleetscope.agent.core.CollectContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test inputs: the real captures under src/test/resources/fixtures and a fixed collection context. */
public final class TestData {
  private TestData() {}

  /** 2026-01-01T00:00:00Z */
  public static final long TS = 1767225600000L;
  public static final CollectContext CTX = new CollectContext(TS, "test-cluster", "node-a");

  public static Path moduleDir() {
    Path p = Path.of("").toAbsolutePath();
    return Files.isDirectory(p.resolve("src/test/resources")) ? p : p.resolve("agents");
  }

  public static Path fixture(String rel) {
    return moduleDir().resolve("src/test/resources/fixtures").resolve(rel);
  }

  public static String read(String rel) {
    try {
      return Files.readString(fixture(rel), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The lines of one section of an nvidia_gpu_exporter multi-section capture: everything after the
   * banner whose title line starts with {@code "# " + title} up to the next banner.
   */
  public static String section(String rel, String title) {
    String[] lines = read(rel).split("\n", -1);
    StringBuilder sb = new StringBuilder();
    boolean in = false;
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (l.startsWith("####") && i + 1 < lines.length && lines[i + 1].startsWith("# ")) {
        if (in) break;
        if (lines[i + 1].startsWith("# " + title)) {
          in = true;
          i += 1;
          while (i + 1 < lines.length && lines[i + 1].startsWith("#") && !lines[i + 1].startsWith("####")) i++;
          if (i + 1 < lines.length && lines[i + 1].startsWith("####")) i++;
          continue;
        }
      }
      if (in) sb.append(l).append('\n');
    }
    if (!in) throw new IllegalArgumentException("no section '" + title + "' in " + rel);
    return sb.toString();
  }
}
