package io.fleetscope.loadgen.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.loadgen.scenario.GroundTruthLabel;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The labels file: one JSON object per line with fields scenario, fault, fault_type, alertname,
 * target (map), match (keys), start_ts, end_ts (epoch ms) and tolerated (alertnames).
 */
public final class LabelsWriter {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LabelsWriter() {}

  public static void write(Path file, List<GroundTruthLabel> labels) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        for (GroundTruthLabel l : labels) {
          w.write(toJson(l));
          w.write('\n');
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write labels " + file + ": " + e.getMessage(), e);
    }
  }

  public static String toJson(GroundTruthLabel l) {
    var n = JSON.createObjectNode();
    n.put("scenario", l.scenario());
    n.put("fault", l.fault());
    n.put("fault_type", l.faultType());
    n.put("alertname", l.alertname());
    var t = n.putObject("target");
    l.target().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey()).forEach(e -> t.put(e.getKey(), e.getValue()));
    var m = n.putArray("match");
    l.match().forEach(m::add);
    n.put("start_ts", l.startTs());
    n.put("end_ts", l.endTs());
    var tol = n.putArray("tolerated");
    l.tolerated().forEach(tol::add);
    return n.toString();
  }

  public static List<GroundTruthLabel> read(Path file) {
    try {
      List<GroundTruthLabel> out = new ArrayList<>();
      int lineNo = 0;
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        try {
          out.add(parse(line));
        } catch (RuntimeException e) {
          throw new IllegalArgumentException(file + ":" + lineNo + ": bad label: " + e.getMessage(), e);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read labels " + file + ": " + e.getMessage(), e);
    }
  }

  public static GroundTruthLabel parse(String line) {
    try {
      var n = JSON.readTree(line);
      java.util.Map<String, String> target = new java.util.LinkedHashMap<>();
      n.required("target").fields().forEachRemaining(e -> target.put(e.getKey(), e.getValue().asText()));
      List<String> match = new ArrayList<>();
      n.required("match").forEach(x -> match.add(x.asText()));
      List<String> tol = new ArrayList<>();
      if (n.has("tolerated")) {
        n.get("tolerated").forEach(x -> tol.add(x.asText()));
      }
      return new GroundTruthLabel(n.required("scenario").asText(), n.path("fault").asText(""),
          n.path("fault_type").asText(""), n.required("alertname").asText(), target, match,
          n.required("start_ts").asLong(), n.required("end_ts").asLong(), tol);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
  }
}
