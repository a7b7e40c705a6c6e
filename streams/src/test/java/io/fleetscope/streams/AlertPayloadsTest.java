package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertPayloadsTest {
  private final ObjectMapper json = new ObjectMapper();
  private final OutboundAlert firing = new OutboundAlert("aa", "firing",
      Map.of("alertname", "CoolantFlowLow", "cluster", "c1", "rack", "r07", "severity", "critical"),
      Map.of("summary", "flow low"), Instant.parse("2026-12-01T10:00:00Z"), Instant.parse("2026-12-01T10:04:00Z"),
      "http://127.0.0.1:18083/api/v1/incidents/aa");
  private final OutboundAlert resolved = new OutboundAlert("bb", "resolved",
      Map.of("alertname", "GpuXid", "cluster", "c1", "rack", "r07", "severity", "warning", "node", "n1"),
      Map.of("summary", "xid 79"), Instant.parse("2026-12-01T09:00:00Z"), Instant.parse("2026-12-01T09:30:00Z"), null);

  @Test
  void alertmanagerV2Body() throws Exception {
    JsonNode arr = json.readTree(AlertPayloads.alertmanagerV2(List.of(firing, resolved)));
    assertThat(arr).hasSize(2);
    assertThat(arr.get(0).toString()).isEqualTo("{\"labels\":{\"alertname\":\"CoolantFlowLow\",\"cluster\":\"c1\",\"rack\":\"r07\","
        + "\"severity\":\"critical\"},\"annotations\":{\"summary\":\"flow low\"},\"startsAt\":\"2026-12-01T10:00:00Z\","
        + "\"endsAt\":\"2026-12-01T10:04:00Z\",\"generatorURL\":\"http://127.0.0.1:18083/api/v1/incidents/aa\"}");
    assertThat(arr.get(1).get("endsAt").asText()).isEqualTo("2026-12-01T09:30:00Z");
    assertThat(arr.get(1).has("generatorURL")).isFalse();
  }

  @Test
  void webhookBodyFollowsAlertmanagersFormat() throws Exception {
    List<String> bodies = AlertPayloads.webhook(List.of(firing, resolved), "fleetscope", "http://127.0.0.1:18083/");
    assertThat(bodies).hasSize(1);
    JsonNode n = json.readTree(bodies.get(0));
    assertThat(n.get("version").asText()).isEqualTo("4");
    assertThat(n.get("groupKey").asText()).isEqualTo("{}:{cluster=\"c1\"}");
    assertThat(n.get("status").asText()).isEqualTo("firing");
    assertThat(n.get("receiver").asText()).isEqualTo("fleetscope");
    assertThat(n.get("groupLabels").toString()).isEqualTo("{\"cluster\":\"c1\"}");
    assertThat(n.get("commonLabels").toString()).isEqualTo("{\"cluster\":\"c1\",\"rack\":\"r07\"}");
    assertThat(n.get("commonAnnotations").toString()).isEqualTo("{}");
    assertThat(n.get("externalURL").asText()).isEqualTo("http://127.0.0.1:18083/");
    assertThat(n.get("truncatedAlerts").asInt()).isZero();
    JsonNode a0 = n.get("alerts").get(0);
    assertThat(a0.get("status").asText()).isEqualTo("firing");
    assertThat(a0.get("endsAt").asText()).isEqualTo(AlertPayloads.ZERO_TIME);
    assertThat(a0.get("fingerprint").asText()).isEqualTo("aa");
    JsonNode a1 = n.get("alerts").get(1);
    assertThat(a1.get("status").asText()).isEqualTo("resolved");
    assertThat(a1.get("endsAt").asText()).isEqualTo("2026-12-01T09:30:00Z");
  }

  @Test
  void oneWebhookNotificationPerCluster() {
    OutboundAlert other = new OutboundAlert("cc", "resolved", Map.of("alertname", "GpuXid", "cluster", "c2"), Map.of(),
        Instant.EPOCH, Instant.EPOCH.plusSeconds(1), null);
    List<String> bodies = AlertPayloads.webhook(List.of(firing, other), "r", "u");
    assertThat(bodies).hasSize(2);
    assertThat(bodies.get(1)).contains("\"status\":\"resolved\"").contains("cluster=\\\"c2\\\"");
  }
}
