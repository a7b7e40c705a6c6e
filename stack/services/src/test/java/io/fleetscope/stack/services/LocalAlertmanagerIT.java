package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalAlertmanagerIT {
  @TempDir Path tmp;

  @Test
  void acceptsAlertsAndKeepsSilencesAcrossRestart() throws Exception {
    Path cfg = tmp.resolve("am.yml");
    Files.writeString(cfg, String.join("\n",
        "route:",
        "  receiver: 'null'",
        "  group_by: ['alertname']",
        "receivers:",
        "  - name: 'null'",
        ""));
    LocalAlertmanager am = TestServices.alertmanager(cfg);
    assertThat(LocalAlertmanager.isReady(am.url())).isTrue();

    HttpClient http = HttpClient.newHttpClient();
    Instant starts = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    String alert = "[{\"labels\":{\"alertname\":\"GpuXid\",\"node\":\"node-a\",\"severity\":\"warning\"},"
        + "\"annotations\":{\"summary\":\"xid 79\"},\"startsAt\":\"" + starts + "\",\"endsAt\":\""
        + starts.plus(1, ChronoUnit.HOURS) + "\"}]";
    HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(am.url() + "/api/v2/alerts"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(alert)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(200);
    assertThat(alertNames(http, am)).containsExactly("GpuXid");

    // a silence, which Alertmanager keeps in its storage path (alerts it keeps only in memory:
    // senders re-send them, which is why the correlator re-sends firing alerts)
    String silence = "{\"matchers\":[{\"name\":\"node\",\"value\":\"node-a\",\"isRegex\":false}],"
        + "\"startsAt\":\"" + starts + "\",\"endsAt\":\"" + starts.plus(2, ChronoUnit.HOURS)
        + "\",\"createdBy\":\"it\",\"comment\":\"maintenance\"}";
    HttpResponse<String> sil = http.send(HttpRequest.newBuilder(URI.create(am.url() + "/api/v2/silences"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(silence)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(sil.statusCode()).isEqualTo(200);
    String silenceId = new ObjectMapper().readTree(sil.body()).path("silenceID").asText();
    assertThat(silenceId).isNotBlank();

    am.restart();
    assertThat(LocalAlertmanager.isReady(am.url())).isTrue();
    HttpResponse<String> after = http.send(HttpRequest.newBuilder(URI.create(am.url() + "/api/v2/silences")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(after.body()).contains(silenceId, "maintenance");
    assertThat(alertNames(http, am)).isEmpty();
    am.stop();
    assertThat(LocalAlertmanager.isReady(am.url())).isFalse();
  }

  private static java.util.List<String> alertNames(HttpClient http, LocalAlertmanager am) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(am.url() + "/api/v2/alerts")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    java.util.List<String> out = new java.util.ArrayList<>();
    for (JsonNode a : new ObjectMapper().readTree(r.body())) {
      out.add(a.path("labels").path("alertname").asText());
    }
    return out;
  }
}
