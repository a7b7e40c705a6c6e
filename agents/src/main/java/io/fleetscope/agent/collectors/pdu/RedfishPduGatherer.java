package io.fleetscope.agent.collectors.pdu;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.agent.collectors.redfish.RedfishClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Gathering only: follows {@code /redfish/v1/PowerEquipment/RackPDUs} to every rack PDU, its
 * Metrics, Mains and Outlets.
 */
public final class RedfishPduGatherer {

  public static final String RACK_PDUS = "/redfish/v1/PowerEquipment/RackPDUs";

  private RedfishPduGatherer() {}

  public static List<RackPduDocs> gather(RedfishClient client) throws IOException, InterruptedException {
    List<RackPduDocs> out = new ArrayList<>();
    for (String pduPath : RedfishClient.members(client.get(RACK_PDUS))) {
      JsonNode pdu = client.get(pduPath);
      String metricsPath = RedfishClient.link(pdu, "Metrics");
      JsonNode metrics = metricsPath == null ? null : client.get(metricsPath);
      out.add(new RackPduDocs(pdu, metrics, collection(client, pdu, "Mains"), collection(client, pdu, "Outlets")));
    }
    return out;
  }

  private static List<JsonNode> collection(RedfishClient client, JsonNode owner, String property)
      throws IOException, InterruptedException {
    String path = RedfishClient.link(owner, property);
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
