package io.fleetscope.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** One-line text of an Alertmanager alert (API or webhook JSON) for the demo's and receiver's output. */
final class AlertText {
  /** Labels shown, in this order, when present: where the alert is. */
  private static final String[] WHERE = {"cluster", "rack", "scope", "device", "cdu_loop", "loop", "rail", "node", "gpu"};

  private AlertText() {}

  /** {@code ALERTNAME severity=S cluster=.. rack=.. ... summary="..."}. */
  static String describe(JsonNode alert) {
    JsonNode l = alert.path("labels");
    StringBuilder sb = new StringBuilder();
    sb.append(l.path("alertname").asText("?")).append(" severity=").append(l.path("severity").asText("?"));
    for (String k : WHERE) {
      if (l.has(k)) {
        sb.append(' ').append(k).append('=').append(l.get(k).asText());
      }
    }
    String summary = alert.path("annotations").path("summary").asText("");
    if (!summary.isEmpty()) {
      sb.append(" summary=\"").append(summary).append('"');
    }
    return sb.toString();
  }
}
