package io.fleetscope.flink.core;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * GPU models and rack cooling capacities (classpath resource {@code hardware-catalog.yaml}, with the
 * source of every number). A null limit means the vendor does not publish it: use the limit the
 * device reports in fleet.inventory.v1 (GpuInfo.slowdown_temp_c ...), which always wins.
 */
public record HardwareCatalog(List<GpuModel> gpus, Map<String, Cooling> cooling) implements Serializable {
  public static final String RESOURCE = "/hardware-catalog.yaml";

  /** One GPU model. {@code match} are lower-case substrings of the model name as drivers report it. */
  public record GpuModel(
      String name,
      String vendor,
      List<String> match,
      Double tdpW,
      Double hbmGb,
      Double hbmTbPerS,
      Double slowdownTempC,
      Double shutdownTempC,
      Double memMaxTempC,
      String source,
      String notes)
      implements Serializable {}

  /** Cooling capacity of one rack cooling type, kW per rack. */
  public record Cooling(double typicalKw, Double minKw, Double maxKw, String notes) implements Serializable {}

  public static HardwareCatalog load() {
    ObjectMapper m = new ObjectMapper(new YAMLFactory())
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    try (InputStream in = HardwareCatalog.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + RESOURCE + " missing from the classpath");
      }
      return m.readValue(in, HardwareCatalog.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
    }
  }

  /**
   * The model whose match strings occur in a reported model name (e.g. "NVIDIA H100 80GB HBM3"), the
   * longest match winning so "h200" is not taken for "h20".
   */
  public Optional<GpuModel> gpu(String reportedModel) {
    if (reportedModel == null) {
      return Optional.empty();
    }
    String m = reportedModel.toLowerCase(Locale.ROOT);
    GpuModel best = null;
    int bestLen = 0;
    for (GpuModel g : gpus) {
      for (String s : g.match()) {
        if (m.contains(s) && s.length() > bestLen) {
          best = g;
          bestLen = s.length();
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /** Capacity for a cooling type (air, rear-door, direct-liquid, immersion). */
  public Optional<Cooling> cooling(String type) {
    return type == null ? Optional.empty() : Optional.ofNullable(cooling.get(type.toLowerCase(Locale.ROOT)));
  }
}
