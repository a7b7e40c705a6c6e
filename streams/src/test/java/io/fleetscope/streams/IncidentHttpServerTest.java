package io.fleetscope.streams;

import static io.fleetscope.streams.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.avro.Alert;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** The incidents API over the topology's real incidents store. */
class IncidentHttpServerTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void servesActiveIncidentsAndOneByFingerprint() throws Exception {
    try (Harness h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "0"))) {
      h.pipe(Fleet.coolantFlowLow(T0), T0);
      h.pipeAll(Fleet.rack07Hot(T0), T0);
      var lone = Fleet.gpuHot(T0, Fleet.node(8, 1), 1);
      h.pipe(lone, T0);
      h.pipe(Fleet.resolved(lone, T0.plusSeconds(5)), T0.plusSeconds(5));
      KeyValueStore<String, Alert> store = h.driver.getKeyValueStore(IncidentProcessor.INCIDENTS);
      try (IncidentHttpServer server = new IncidentHttpServer(0, () -> store).start()) {
        String base = "http://127.0.0.1:" + server.port() + "/api/v1/incidents";
        HttpResponse<String> r = get(base);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
        JsonNode body = json.readTree(r.body());
        assertThat(body.get("count").asInt()).isEqualTo(1);
        JsonNode inc = body.get("incidents").get(0);
        assertThat(inc.get("labels").get("alertname").asText()).isEqualTo("CoolantFlowLow");
        assertThat(inc.get("blast_radius").get("gpus").asInt()).isEqualTo(32);
        assertThat(inc.get("blast_radius").get("nodes").asInt()).isEqualTo(4);
        assertThat(inc.get("members")).hasSize(33);

        assertThat(json.readTree(get(base + "?status=all").body()).get("count").asInt()).isEqualTo(2);

        String fp = inc.get("fingerprint").asText();
        HttpResponse<String> one = get(base + "/" + fp);
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(json.readTree(one.body()).get("version").asLong()).isEqualTo(33);
        HttpResponse<String> resolved = get(base + "/" + lone.getFingerprint());
        assertThat(json.readTree(resolved.body()).get("status").asText()).isEqualTo("resolved");

        HttpResponse<String> missing = get(base + "/0000000000000000");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(json.readTree(missing.body()).get("error").asText()).contains("0000000000000000");

        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base))
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
      }
    }
  }

  @Test
  void answers503WhileTheStoreIsNotQueryable() throws Exception {
    try (IncidentHttpServer server = new IncidentHttpServer(0, () -> {
      throw new InvalidStateStoreException("rebalancing");
    }).start()) {
      HttpResponse<String> r = get("http://127.0.0.1:" + server.port() + "/api/v1/incidents");
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.body()).contains("rebalancing");
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
