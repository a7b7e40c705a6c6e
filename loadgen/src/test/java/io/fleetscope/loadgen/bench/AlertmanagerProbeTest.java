package io.fleetscope.loadgen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class AlertmanagerProbeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** An answer of GET /api/v2/alerts as Alertmanager 0.25 writes it (fields the probe reads, and others). */
  private static String answer(String... alerts) {
    return "[" + String.join(",", alerts) + "]";
  }

  private static String alert(String fp, String name, String startsAt) {
    return "{\"annotations\":{},\"endsAt\":\"2026-12-05T02:10:00.000Z\",\"fingerprint\":\"" + fp + "\",\"receivers\":[{\"name\":\"pager\"}],"
        + "\"startsAt\":\"" + startsAt + "\",\"status\":{\"inhibitedBy\":[],\"silencedBy\":[],\"state\":\"active\"},"
        + "\"updatedAt\":\"2026-12-05T02:05:00.100Z\",\"labels\":{\"alertname\":\"" + name + "\",\"severity\":\"critical\"}}";
  }

  @Test
  void latencyIsFirstSeenMinusStartsAtOncePerAlertAndOnlyAfterFrom() throws Exception {
    long from = java.time.Instant.parse("2026-12-05T02:00:00Z").toEpochMilli();
    AlertmanagerProbe p = new AlertmanagerProbe("http://127.0.0.1:1/", from, 250);
    long seenAt = java.time.Instant.parse("2026-12-05T02:05:01.250Z").toEpochMilli();
    p.record(JSON.readTree(answer(
        alert("a1", "GpuXid", "2026-12-05T02:05:00.000Z"),
        alert("a0", "GpuXid", "2026-12-05T01:59:59.000Z"),       // before the warm-up ended: left out
        alert("b1", "CoolantFlowLow", "2026-12-05T02:04:58.500+00:00"))), seenAt);
    // the same alerts again a poll later: already seen, no new figure
    p.record(JSON.readTree(answer(alert("a1", "GpuXid", "2026-12-05T02:05:00.000Z"))), seenAt + 250);

    assertThat(p.seen()).containsExactly(
        new AlertmanagerProbe.Seen("GpuXid", 1250),
        new AlertmanagerProbe.Seen("CoolantFlowLow", 2750));
  }
}
