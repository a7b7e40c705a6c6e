package io.fleetscope.loadgen.sim;

import java.util.Map;

/** Driver messages the simulator writes for the XIDs it emits (wording as in NVIDIA's XID catalog). */
public final class XidCatalog {
  private XidCatalog() {}

  private static final Map<Integer, String> MESSAGES = Map.ofEntries(
      Map.entry(13, "Graphics Engine Exception"),
      Map.entry(31, "MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f12_34560000"),
      Map.entry(43, "Reset Channel Verif Error"),
      Map.entry(48, "An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer"),
      Map.entry(63, "Row Remapper: New row marked for remapping, reset gpu to activate"),
      Map.entry(64, "Row Remapper: Failed to remap row; ECC page retirement or row remapper recording failure"),
      Map.entry(74, "NVLink: fatal error detected on link 7 (0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)"),
      Map.entry(79, "GPU has fallen off the bus."),
      Map.entry(92, "High single-bit ECC error rate"),
      Map.entry(94, "Contained ECC error"),
      Map.entry(95, "Uncontained ECC error"));

  public static String message(int xid) {
    return MESSAGES.getOrDefault(xid, "Xid " + xid);
  }
}
