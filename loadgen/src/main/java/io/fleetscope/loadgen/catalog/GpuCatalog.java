package io.fleetscope.loadgen.catalog;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The GPU models the simulator knows. Numbers come from real nvidia-smi captures (see
 * src/test/resources/SOURCES.md): power limits 700 W (default = max power limit) on H100 80GB HBM3
 * and H200; max clocks 1980 MHz SM, HBM 2619 MHz (H100) / 3201 MHz (H200); framebuffer 81559 MiB
 * (H100) / 143771 MiB (H200). The temperature limits follow from the captures' T.Limit readings
 * (current temp + T.Limit = 87 C; slowdown at T.Limit -2, shutdown at T.Limit -8).
 */
public final class GpuCatalog {
  private GpuCatalog() {}

  public static final GpuModel H100_SXM =
      new GpuModel("NVIDIA H100 80GB HBM3", 700, 87, 89, 95, 95, 80, 81559, 1980, 2619, 70);
  public static final GpuModel H200_SXM =
      new GpuModel("NVIDIA H200", 700, 87, 89, 95, 95, 141, 143771, 1980, 3201, 75);

  private static final Map<String, GpuModel> BY_KEY = new LinkedHashMap<>();

  static {
    BY_KEY.put("h100", H100_SXM);
    BY_KEY.put("h200", H200_SXM);
  }

  /** A model by short key ({@code h100}, {@code h200}) or by its full product name. */
  public static GpuModel require(String keyOrName) {
    GpuModel m = BY_KEY.get(keyOrName.toLowerCase(Locale.ROOT));
    if (m != null) {
      return m;
    }
    for (GpuModel g : BY_KEY.values()) {
      if (g.name().equalsIgnoreCase(keyOrName)) {
        return g;
      }
    }
    throw new IllegalArgumentException("unknown GPU model '" + keyOrName + "'; known: " + BY_KEY.keySet());
  }
}
