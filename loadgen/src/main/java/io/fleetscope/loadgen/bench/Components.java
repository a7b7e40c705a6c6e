package io.fleetscope.loadgen.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The processes whose CPU and memory the pipeline benchmark watches: every {@code STATE/run/NAME.pid}
 * file, PostgreSQL's {@code postmaster.pid} anywhere under STATE, plus explicitly given name=pid pairs.
 */
public final class Components {
  private Components() {}

  public static Map<String, Long> discover(Path stateDir, Map<String, Long> explicit) {
    Map<String, Long> out = new TreeMap<>();
    Path run = stateDir.resolve("run");
    if (Files.isDirectory(run)) {
      try (Stream<Path> s = Files.list(run)) {
        s.filter(p -> p.getFileName().toString().endsWith(".pid")).forEach(p -> readPid(p).ifPresent(pid ->
            out.put(p.getFileName().toString().replaceFirst("\\.pid$", ""), pid)));
      } catch (IOException e) {
        // an unreadable run dir means no components from it
      }
    }
    if (Files.isDirectory(stateDir)) {
      try (Stream<Path> s = Files.walk(stateDir, 4)) {
        s.filter(p -> p.getFileName().toString().equals("postmaster.pid")).findFirst()
            .flatMap(Components::readPid).ifPresent(pid -> out.putIfAbsent("postgres", pid));
      } catch (IOException e) {
        // as above
      }
    }
    out.putAll(explicit);
    return out;
  }

  static java.util.Optional<Long> readPid(Path f) {
    try {
      String first = Files.readAllLines(f).stream().findFirst().orElse("").trim();
      return java.util.Optional.of(Long.parseLong(first));
    } catch (IOException | NumberFormatException e) {
      return java.util.Optional.empty();
    }
  }
}
