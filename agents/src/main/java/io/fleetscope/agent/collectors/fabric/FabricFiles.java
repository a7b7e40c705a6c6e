package io.fleetscope.agent.collectors.fabric;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Reads the fabric configuration files of one port under a configurable sysfs root (the I/O half of
 * the fabric collector): the interface's MTU and ECN tree and the mlx5 debugfs DCQCN parameters
 * ({@code ROOT/kernel/debug/mlx5/<pci>/cc_params}). Absent or unreadable files are left out.
 */
final class FabricFiles {
  private FabricFiles() {}

  /** {@code ROOT/class/net/<netdev>/mtu}, stripped, or null. */
  static String mtu(Path sysRoot, String netdev) {
    return read(sysRoot.resolve("class/net").resolve(netdev).resolve("mtu"));
  }

  /** Files of {@code ROOT/class/net/<netdev>/ecn/} that the parser reads, by name relative to it. */
  static Map<String, String> ecn(Path sysRoot, String netdev) {
    Path ecn = sysRoot.resolve("class/net").resolve(netdev).resolve("ecn");
    Map<String, String> out = new TreeMap<>();
    for (String role : new String[] {"roce_np", "roce_rp"}) {
      Path enable = ecn.resolve(role).resolve("enable");
      for (Path p : list(enable)) {
        String v = read(p);
        if (v != null) out.put(role + "/enable/" + p.getFileName(), v);
      }
    }
    String dscp = read(ecn.resolve("roce_np/cnp_dscp"));
    if (dscp != null) out.put("roce_np/cnp_dscp", dscp);
    return out;
  }

  /** Files of {@code ROOT/kernel/debug/mlx5/<pci>/cc_params/}, by file name; empty when not there. */
  static Map<String, String> ccParams(Path sysRoot, String pci) {
    Map<String, String> out = new TreeMap<>();
    if (pci == null) return out;
    for (Path p : list(sysRoot.resolve("kernel/debug/mlx5").resolve(pci).resolve("cc_params"))) {
      String v = read(p);
      if (v != null) out.put(p.getFileName().toString(), v);
    }
    return out;
  }

  /** The PCI address of an RDMA device: the name its {@code device} link points to, or null. */
  static String pci(Path sysRoot, String device) {
    try {
      Path d = sysRoot.resolve("class/infiniband").resolve(device).resolve("device");
      if (!Files.isSymbolicLink(d)) return null;
      String name = d.toRealPath().getFileName().toString();
      return name.contains(":") ? name : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static Iterable<Path> list(Path dir) {
    if (!Files.isDirectory(dir)) return java.util.List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      return java.util.List.of();
    }
  }

  private static String read(Path f) {
    try {
      return Files.isRegularFile(f) ? Files.readString(f, StandardCharsets.ISO_8859_1).strip() : null;
    } catch (IOException e) {
      return null; // unreadable (EINVAL, EPERM on debugfs): unknown, not fatal
    }
  }
}
