package io.fleetscope.agent.collectors.coolant;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.agent.collectors.gpu.Values;
import io.fleetscope.avro.CoolantReading;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pure: Redfish CoolingUnit resources to {@link CoolantReading}s, one per coolant connector (loop
 * side): supply/return temperature, flow, DeltaPressurekPa as pressure difference, HeatRemovedkW as
 * heat load. Pump speed (mean PumpSpeedPercent of the unit's pumps that report one) goes on the
 * secondary (rack-side) loop records, which the CDU's pumps drive. leak_detected is the unit's:
 * true when any leak detector's DetectorState is Warning or Critical, false when all are OK, null
 * when the unit reports no detector.
 */
public final class RedfishCduParser {

  private RedfishCduParser() {}

  public static List<CoolantReading> parse(List<CduDocs> units, String device, Map<String, String> loops, long ts, String cluster) {
    List<CoolantReading> out = new ArrayList<>();
    for (CduDocs u : units) {
      String dev = units.size() == 1 ? device : device + "-" + u.unit().path("Id").asText();
      Boolean leak = leak(u);
      Double pumps = pumpSpeed(u.pumps());
      for (JsonNode c : u.primaryConnectors()) {
        out.add(reading(c, "primary", dev, loops, leak, null, ts, cluster));
      }
      for (JsonNode c : u.secondaryConnectors()) {
        out.add(reading(c, "secondary", dev, loops, leak, pumps, ts, cluster));
      }
    }
    return out;
  }

  private static CoolantReading reading(JsonNode c, String side, String device, Map<String, String> loops,
      Boolean leak, Double pumpSpeed, long ts, String cluster) {
    String key = side + "-" + c.path("Id").asText();
    return CoolantReading.newBuilder().setTs(ts).setCluster(cluster).setDevice(device).setAgentSeq(0L)
        .setSource("redfish").setLoop(loops.getOrDefault(key, key))
        .setSupplyTempC(reading(c.path("SupplyTemperatureCelsius")))
        .setReturnTempC(reading(c.path("ReturnTemperatureCelsius")))
        .setFlowLpm(reading(c.path("FlowLitersPerMinute")))
        .setPressureDiffKpa(reading(c.path("DeltaPressurekPa")))
        .setHeatLoadKw(reading(c.path("HeatRemovedkW")))
        .setPumpSpeedPct(pumpSpeed)
        .setLeakDetected(leak)
        .build();
  }

  static Boolean leak(CduDocs u) {
    List<String> states = new ArrayList<>();
    for (JsonNode d : u.leakDetectors()) {
      if (d.path("DetectorState").isTextual()) {
        states.add(d.path("DetectorState").asText());
      }
    }
    if (u.leakDetection() != null) {
      for (JsonNode g : u.leakDetection().path("LeakDetectorGroups")) {
        for (JsonNode d : g.path("Detectors")) {
          if (d.path("DetectorState").isTextual()) {
            states.add(d.path("DetectorState").asText());
          }
        }
      }
    }
    if (states.isEmpty()) {
      return null;
    }
    return states.stream().anyMatch(s -> s.equals("Warning") || s.equals("Critical"));
  }

  static Double pumpSpeed(List<JsonNode> pumps) {
    double sum = 0;
    int n = 0;
    for (JsonNode p : pumps) {
      Double v = reading(p.path("PumpSpeedPercent"));
      if (v != null) {
        sum += v;
        n++;
      }
    }
    return n == 0 ? null : Math.round(sum / n * 1e6) / 1e6;
  }

  private static Double reading(JsonNode excerpt) {
    JsonNode r = excerpt.path("Reading");
    return r.isNumber() ? Values.finite(r.asDouble()) : null;
  }
}
