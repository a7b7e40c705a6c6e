package io.fleetscope.agent.collectors.gpu;

import java.util.Locale;

/**
 * A GPU's PCI bus id in the one spelling the agent keys GPUs by: nvidia-smi, DCGM and the kernel's
 * XID lines each write it differently.
 */
public final class PciBusId {
  private PciBusId() {}

  /**
   * {@code 0000:3b:00}, {@code 00000000:3B:00.0} and {@code 0000:3b:00.0} all become
   * {@code 0000:3b:00} (4-digit domain, bus, device; lower case; function dropped).
   */
  public static String normalize(String id) {
    String s = id.trim().toLowerCase(Locale.ROOT);
    int dot = s.lastIndexOf('.');
    if (dot > 0) s = s.substring(0, dot);
    String[] parts = s.split(":");
    if (parts.length != 3) return s;
    String domain = parts[0].length() > 4 ? parts[0].substring(parts[0].length() - 4) : String.format("%4s", parts[0]).replace(' ', '0');
    return domain + ":" + parts[1] + ":" + parts[2];
  }}
