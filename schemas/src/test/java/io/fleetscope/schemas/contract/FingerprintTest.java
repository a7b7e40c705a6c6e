package io.fleetscope.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The fingerprint is the Kafka key of anomalies and incidents and what Alertmanager deduplicates on:
 * it must never change. The expected values are {@code printf 'name=value\n...' | sha256sum | cut -c1-16}.
 */
class FingerprintTest {

  @Test
  void isTheFirst16HexDigitsOfSha256OverTheSortedLabelLines() {
    assertThat(Fingerprint.of(Map.of())).isEqualTo("e3b0c44298fc1c14");
    assertThat(Fingerprint.of(Map.of("alertname", "GpuThermalThrottleRisk", "severity", "warning", "cluster", "c1",
        "node", "n-01", "gpu", "3"))).isEqualTo("33c697a5041f51d6");
    assertThat(Fingerprint.of(Map.of("alertname", "IbRailDegraded", "severity", "critical", "cluster", "c1",
        "rail", "3", "scope", "rail"))).isEqualTo("dd0d10ac137178db");
  }

  @Test
  void encodesTheLinesAsUtf8() {
    assertThat(Fingerprint.of(Map.of("alertname", "CoolantFlowLow", "cluster", "c1", "device", "cdu-1", "loop", "A",
        "summary", "füße"))).isEqualTo("28ba1363b758a4bf");
  }

  @Test
  void doesNotDependOnTheOrderOfTheMap() {
    Map<String, String> inserted = new LinkedHashMap<>();
    inserted.put("severity", "warning");
    inserted.put("alertname", "GpuXid");
    inserted.put("node", "n-01");
    Map<String, String> sorted = new TreeMap<>(inserted);
    assertThat(Fingerprint.of(inserted)).isEqualTo(Fingerprint.of(sorted)).hasSize(16).matches("[0-9a-f]{16}");
  }

  @Test
  void changesWithAnyLabelValue() {
    assertThat(Fingerprint.of(Map.of("alertname", "GpuXid", "gpu", "1")))
        .isNotEqualTo(Fingerprint.of(Map.of("alertname", "GpuXid", "gpu", "2")));
  }
}
