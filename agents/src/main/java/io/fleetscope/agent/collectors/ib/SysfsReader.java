package io.fleetscope.agent.collectors.ib;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Gathers sysfs InfiniBand files under a configurable root (the I/O half of the sysfs collector). */
public final class SysfsReader {
  private SysfsReader() {}

  public record PortDir(String device, int port, Path dir) {}

  /** All {@code ROOT/class/infiniband/DEV/ports/N} directories, sorted by device then port. */
  public static List<PortDir> ports(Path sysRoot) throws IOException {
    Path base = sysRoot.resolve("class/infiniband");
    List<PortDir> out = new ArrayList<>();
    if (!Files.isDirectory(base)) return out;
    for (Path dev : sorted(base)) {
      Path ports = dev.resolve("ports");
      if (!Files.isDirectory(ports)) continue;
      for (Path p : sorted(ports)) {
        try {
          out.add(new PortDir(dev.getFileName().toString(), Integer.parseInt(p.getFileName().toString()), p));
        } catch (NumberFormatException ignored) {
          // not a port directory
        }
      }
    }
    out.sort((a, b) -> a.device().equals(b.device()) ? Integer.compare(a.port(), b.port()) : a.device().compareTo(b.device()));
    return out;
  }

  /** Reads the port's files: {@code state, phys_state, rate, link_layer} and {@code counters*}/{@code hw_counters} entries. */
  public static Map<String, String> readPort(Path portDir) throws IOException {
    Map<String, String> files = new TreeMap<>();
    for (String f : List.of("state", "phys_state", "rate", "link_layer")) read(portDir, f, files);
    for (String sub : List.of("counters", "counters_ext", "hw_counters")) {
      Path d = portDir.resolve(sub);
      if (!Files.isDirectory(d)) continue;
      for (Path f : sorted(d)) read(portDir, sub + "/" + f.getFileName(), files);
    }
    return files;
  }

  /** Reads a device-level file such as {@code node_guid}, or null. */
  public static String deviceFile(Path sysRoot, String device, String name) {
    Path f = sysRoot.resolve("class/infiniband").resolve(device).resolve(name);
    try {
      return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.UTF_8).strip() : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** Network interfaces of an HCA ({@code DEV/device/net/*}), for ethtool. */
  public static List<String> netdevs(Path sysRoot, String device) throws IOException {
    Path d = sysRoot.resolve("class/infiniband").resolve(device).resolve("device/net");
    List<String> out = new ArrayList<>();
    if (Files.isDirectory(d)) for (Path p : sorted(d)) out.add(p.getFileName().toString());
    return out;
  }

  private static void read(Path dir, String rel, Map<String, String> into) {
    Path f = dir.resolve(rel);
    if (!Files.isRegularFile(f)) return;
    try {
      into.put(rel, Files.readString(f, StandardCharsets.UTF_8));
    } catch (IOException e) {
      // unreadable counters (EINVAL on some drivers) are absent, not fatal
    }
  }

  private static List<Path> sorted(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }
}
