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

  /**
   * The port files the parser uses, relative to {@code ports/N/}. Only these are read (a port
   * directory has about 50 counter files; reading all of them every second was most of the
   * agent's CPU).
   */
  public static final List<String> PORT_FILES = List.of(
      "state", "phys_state", "rate", "link_layer",
      "counters_ext/port_xmit_data_64", "counters_ext/port_rcv_data_64",
      "counters_ext/port_xmit_packets_64", "counters_ext/port_rcv_packets_64",
      "counters/port_xmit_data", "counters/port_rcv_data", "counters/port_xmit_packets", "counters/port_rcv_packets",
      "counters/port_xmit_wait", "counters/symbol_error", "counters/link_downed", "counters/link_error_recovery",
      "counters/port_rcv_errors", "counters/port_xmit_discards",
      "hw_counters/np_ecn_marked_roce_packets", "hw_counters/np_cnp_sent", "hw_counters/rp_cnp_handled");

  /** Reads the {@link #PORT_FILES} that exist; absent or unreadable ones are left out. */
  public static Map<String, String> readPort(Path portDir) {
    return readPort(portDir, PORT_FILES);
  }

  /** Reads the named files of a port directory that exist. */
  public static Map<String, String> readPort(Path portDir, List<String> names) {
    Map<String, String> files = new TreeMap<>();
    for (String f : names) read(portDir, f, files);
    return files;
  }

  /** Which of {@link #PORT_FILES} exist in this port directory (to skip the absent ones every round). */
  public static List<String> presentFiles(Path portDir) {
    return PORT_FILES.stream().filter(f -> Files.isRegularFile(portDir.resolve(f))).toList();
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
    try {
      into.put(rel, new String(Files.readAllBytes(dir.resolve(rel)), StandardCharsets.ISO_8859_1));
    } catch (IOException e) {
      // absent, or unreadable (EINVAL on some drivers): left out, not fatal
    }
  }

  private static List<Path> sorted(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }
}
