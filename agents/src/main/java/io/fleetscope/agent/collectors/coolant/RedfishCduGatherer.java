package io.fleetscope.agent.collectors.coolant;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.agent.collectors.redfish.RedfishClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Gathering only: follows {@code /redfish/v1/ThermalEquipment/CDUs} to every CoolingUnit, its
 * coolant connectors, pumps and leak detection.
 */
public final class RedfishCduGatherer {

  public static final String CDUS = "/redfish/v1/ThermalEquipment/CDUs";

  private RedfishCduGatherer() {}

  public static List<CduDocs> gather(RedfishClient client) throws IOException, InterruptedException {
    List<CduDocs> out = new ArrayList<>();
    for (String path : RedfishClient.members(client.get(CDUS))) {
      JsonNode unit = client.get(path);
      String leakPath = RedfishClient.link(unit, "LeakDetection");
      JsonNode leak = leakPath == null ? null : client.get(leakPath);
      out.add(new CduDocs(unit,
          collection(client, RedfishClient.link(unit, "PrimaryCoolantConnectors")),
          collection(client, RedfishClient.link(unit, "SecondaryCoolantConnectors")),
          collection(client, RedfishClient.link(unit, "Pumps")),
          leak, leak == null ? List.of() : leakDetectors(client, leak)));
    }
    return out;
  }

  /**
   * The LeakDetectors of a LeakDetection resource. The schema puts them at
   * {@code <LeakDetection>/LeakDetectors}, but services (the DMTF mockup among them) may not link
   * it; then the fixed path is tried, and a 404 there means "only the inline detector states".
   */
  private static List<JsonNode> leakDetectors(RedfishClient client, JsonNode leak) throws IOException, InterruptedException {
    String linked = RedfishClient.link(leak, "LeakDetectors");
    if (linked != null) {
      return collection(client, linked);
    }
    if (!leak.path("@odata.id").isTextual()) {
      return List.of();
    }
    try {
      return collection(client, leak.path("@odata.id").asText() + "/LeakDetectors");
    } catch (RedfishClient.NotFoundException e) {
      return List.of();
    }
  }

  private static List<JsonNode> collection(RedfishClient client, String path) throws IOException, InterruptedException {
    List<JsonNode> out = new ArrayList<>();
    if (path == null) {
      return out;
    }
    for (String member : RedfishClient.members(client.get(path))) {
      out.add(client.get(member));
    }
    return out;
  }
}
