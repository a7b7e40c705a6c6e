package io.fleetscope.agent.collectors.coolant;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The Redfish resources of one CoolingUnit as gathered: the unit, its primary and secondary
 * CoolantConnectors, its Pumps, its LeakDetection resource (may be null) and LeakDetectors.
 */
public record CduDocs(
    JsonNode unit,
    List<JsonNode> primaryConnectors,
    List<JsonNode> secondaryConnectors,
    List<JsonNode> pumps,
    JsonNode leakDetection,
    List<JsonNode> leakDetectors) {}
