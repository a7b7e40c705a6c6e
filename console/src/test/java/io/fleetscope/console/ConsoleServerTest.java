package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleServerTest {

  @Test
  void parsesAndBoundsQueryParameters() {
    Map<String, String> q = ConsoleServer.query(URI.create("http://x/api/anomalies?minutes=30&limit=abc&x=%20y"));
    assertThat(ConsoleServer.intParam(q, "minutes", 60, 1, 100)).isEqualTo(30);
    assertThat(ConsoleServer.intParam(q, "absent", 60, 1, 100)).isEqualTo(60);
    assertThat(q.get("x")).isEqualTo(" y");
    assertThatThrownBy(() -> ConsoleServer.intParam(q, "limit", 1, 1, 10)).hasMessageContaining("limit must be a whole number");
    assertThatThrownBy(() -> ConsoleServer.intParam(Map.of("minutes", "0"), "minutes", 1, 1, 10))
        .hasMessageContaining("between 1 and 10");
  }

  @Test
  void readsTheIncidentListOfTheCorrelatorsAnswer() throws Exception {
    // captured from the correlator's GET /api/v1/incidents during ./fleetscope demo
    com.fasterxml.jackson.databind.JsonNode body = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(getClass().getResourceAsStream("/correlator-incidents.json"));
    com.fasterxml.jackson.databind.JsonNode list = ConsoleServer.incidentList(body);
    assertThat(list.isArray()).isTrue();
    assertThat(list).hasSize(1);
    assertThat(list.get(0).path("labels").path("alertname").asText()).isEqualTo("CoolantFlowLow");
    assertThat(ConsoleServer.incidentList(list)).isSameAs(list);
    assertThat(ConsoleServer.incidentList(new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"error\":1}"))).isNull();
  }

  @Test
  void servesThePageAndAnswersUnknownPathsAndUnreachableDatabaseClearly() throws Exception {
    ConsoleConfig cfg = ConsoleConfig.defaults().withPort(0).withJdbc("jdbc:postgresql://127.0.0.1:1/none", "nobody");
    try (ConsoleServer s = new ConsoleServer(cfg).start()) {
      HttpClient h = HttpClient.newHttpClient();
      HttpResponse<String> page = h.send(HttpRequest.newBuilder(URI.create(s.url() + "/")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("<title>FleetScope</title>").contains("/api/incidents");
      HttpResponse<String> nf = h.send(HttpRequest.newBuilder(URI.create(s.url() + "/nope")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(nf.statusCode()).isEqualTo(404);
      assertThat(nf.body()).contains("/api/summary");
      HttpResponse<String> db = h.send(HttpRequest.newBuilder(URI.create(s.url() + "/api/summary")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(db.statusCode()).isEqualTo(503);
      assertThat(db.body()).contains("database");
      HttpResponse<String> bad = h.send(HttpRequest.newBuilder(URI.create(s.url() + "/api/anomalies?minutes=-1")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(bad.statusCode()).isEqualTo(400);
    }
  }

  @Test
  void aTakenPortIsAClearErrorNamingThePort() throws Exception {
    ConsoleConfig cfg = ConsoleConfig.defaults().withPort(0).withJdbc("jdbc:postgresql://127.0.0.1:1/none", "nobody");
    try (ConsoleServer first = new ConsoleServer(cfg).start()) {
      int port = URI.create(first.url()).getPort();
      assertThatThrownBy(() -> new ConsoleServer(cfg.withPort(port)))
          .isInstanceOf(ConsoleServer.PortInUseException.class)
          .hasMessageContaining("127.0.0.1:" + port)
          .hasMessageContaining("--http-port");
    }
  }
}
