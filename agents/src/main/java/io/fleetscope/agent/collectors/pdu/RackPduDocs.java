package io.fleetscope.agent.collectors.pdu;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The Redfish resources of one rack PDU as gathered: the PowerDistribution resource, its
 * PowerDistributionMetrics (may be null), its Mains circuits and its Outlets.
 */
public record RackPduDocs(JsonNode pdu, JsonNode metrics, List<JsonNode> mains, List<JsonNode> outlets) {}
