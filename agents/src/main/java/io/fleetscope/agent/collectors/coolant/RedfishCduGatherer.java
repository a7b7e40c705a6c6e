package io.fleetscope.agent.collectors.coolant;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.agent.collectors.pdu.RedfishClient;
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
      List<JsonNode> detectors = leak == null ? List.of() : collection(client, leak, "LeakDetectors");
      out.add(new CduDocs(unit,
          collection(client, unit, "PrimaryCoolantConnectors"),
          collection(client, unit, "SecondaryCoolantConnectors"),
          collection(client, unit, "Pumps"),
          leak, detectors));
    }
    return out;
  }

  private static List<JsonNode> collection(RedfishClient client, JsonNode owner, String property)
      throws IOException, InterruptedException {
    String path = RedfishClient.link(owner, property);
    if (path == null && owner.has("@odata.id")) {
      // LeakDetection lists no link to its LeakDetectors collection in some services; the path is fixed by the schema
      path = property.equals("LeakDetectors") ? owner.path("@odata.id").asText() + "/LeakDetectors" : null;
    }
    List<JsonNode> out = new ArrayList<>();
    if (path == null) {
      return out;
    }
    JsonNode coll;
    try {
      coll = client.get(path);
    } catch (IOException e) {
      if (property.equals("LeakDetectors") && RedfishClient.link(owner, property) == null) {
        return out; // the guessed path does not exist: rely on the inline detector states
      }
      throw e;
    }
    for (String member : RedfishClient.members(coll)) {
      out.add(client.get(member));
    }
    return out;
  }
}
