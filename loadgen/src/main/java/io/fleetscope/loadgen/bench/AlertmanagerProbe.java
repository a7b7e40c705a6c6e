package io.fleetscope.loadgen.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sample-to-Alertmanager latency: polls Alertmanager's {@code GET /api/v2/alerts} and, for every alert
 * it sees for the first time whose {@code startsAt} (the event time of the sample that raised it, as
 * the correlator sends it) is not before {@code from}, records when it was first seen minus that
 * time. The poll period bounds the error from above (a figure is at most one period late).
 */
final class AlertmanagerProbe implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(AlertmanagerProbe.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One alert seen for the first time: its name and the latency in ms. */
  record Seen(String alertname, long latencyMs) {}

  private final URI alerts;
  private final long fromMs;
  private final long periodMs;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final Set<String> known = new HashSet<>();
  private final List<Seen> seen = new ArrayList<>();
  private volatile boolean stop;

  AlertmanagerProbe(String baseUrl, long fromMs, long periodMs) {
    this.alerts = URI.create(baseUrl.replaceAll("/+$", "") + "/api/v2/alerts");
    this.fromMs = fromMs;
    this.periodMs = periodMs;
  }

  @Override
  public void run() {
    int failures = 0;
    while (!stop) {
      long next = System.currentTimeMillis() + periodMs;
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(alerts).timeout(Duration.ofSeconds(2)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        long now = System.currentTimeMillis();
        if (r.statusCode() == 200) {
          record(JSON.readTree(r.body()), now);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        if (failures++ == 0) {
          log.warn("bench alertmanager probe failed url={} reason={}", alerts, e.toString());
        }
      }
      try {
        Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Records the alerts of one answer seen at {@code nowMs}. */
  synchronized void record(JsonNode answer, long nowMs) {
    for (JsonNode a : answer) {
      String fp = a.path("fingerprint").asText("");
      String starts = a.path("startsAt").asText("");
      if (fp.isEmpty() || starts.isEmpty() || !known.add(fp)) {
        continue;
      }
      long startsMs = OffsetDateTime.parse(starts).toInstant().toEpochMilli();
      if (startsMs >= fromMs) {
        seen.add(new Seen(a.path("labels").path("alertname").asText(""), nowMs - startsMs));
      }
    }
  }

  synchronized List<Seen> seen() {
    return List.copyOf(seen);
  }

  void stop() {
    stop = true;
  }
}
