package io.fleetscope.loadgen.score;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.schemas.contract.AlertStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One firing episode of an anomaly (fingerprint + starts_at), read from fleet.anomalies.v1 records.
 * Repeated firing records of the same episode count once; resolved records are not episodes.
 */
public record FiringAnomaly(String alertname, Map<String, String> labels, long startsAt, String fingerprint) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Reads a JSON-lines file as {@code analyze} writes it: envelope lines of any topic (only
   * fleet.anomalies.v1 is used) or bare Anomaly values. Malformed lines are an error naming the line.
   */
  public static List<FiringAnomaly> read(Path file) {
    try {
      return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read anomalies " + file + ": " + e.getMessage(), e);
    }
  }

  public static List<FiringAnomaly> parse(List<String> lines, String where) {
    List<FiringAnomaly> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    int n = 0;
    for (String line : lines) {
      n++;
      if (line.isBlank()) {
        continue;
      }
      JsonNode node;
      try {
        node = JSON.readTree(line);
      } catch (IOException e) {
        throw new IllegalArgumentException(where + ":" + n + ": not JSON: " + e.getMessage());
      }
      JsonNode v = node;
      if (node.has("topic")) {
        if (!Topics.ANOMALIES.equals(node.get("topic").asText())) {
          continue;
        }
        v = node.get("value");
      }
      if (v == null || !v.has("labels") || !v.has("status")) {
        throw new IllegalArgumentException(where + ":" + n + ": not an anomaly (needs labels and status)");
      }
      if (!AlertStatus.isFiring(v.get("status").asText())) {
        continue;
      }
      Map<String, String> labels = new LinkedHashMap<>();
      v.get("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      String alert = labels.get(AlertLabels.ALERTNAME);
      if (alert == null) {
        throw new IllegalArgumentException(where + ":" + n + ": anomaly without an alertname label");
      }
      // a checkpoint anomaly that names its cause (slow tier / slow job) is scored under that name
      alert = io.fleetscope.loadgen.scenario.FaultType.scoredName(alert, v.path("annotations").path("cause").asText(null));
      long startsAt = v.has("starts_at") ? v.get("starts_at").asLong() : v.path("ts").asLong();
      String fp = v.has("fingerprint") ? v.get("fingerprint").asText() : new java.util.TreeMap<>(labels).toString();
      if (seen.add(fp + "@" + startsAt)) {
        out.add(new FiringAnomaly(alert, Map.copyOf(labels), startsAt, fp));
      }
    }
    return out;
  }
}
