package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint of the console, over HTTP, as the reader login, against a real TimescaleDB that the
 * sink's migrations made and the sink's writer filled with {@link FleetScenario} at 1,000 nodes
 * (8,000 GPUs); and bad input on every endpoint.
 */
class ConsoleQueriesIT {
  static final ObjectMapper JSON = new ObjectMapper();
  static FleetScenario fleet;
  static ConsoleServer console;
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    long t0 = System.nanoTime();
    fleet = new FleetScenario("console_queries_it", 10, 10, 10).write();
    System.out.printf("console-it scenario nodes=%d gpus=%d written_ms=%d%n", fleet.nodes(), fleet.nodes() * 8,
        (System.nanoTime() - t0) / 1_000_000);
    console = new ConsoleServer(fleet.consoleConfig()).start();
  }

  @AfterAll
  static void stop() {
    if (console != null) {
      console.close();
    }
  }

  static HttpResponse<String> raw(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(console.url() + path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static JsonNode get(String path) throws Exception {
    HttpResponse<String> r = raw(path);
    assertThat(r.statusCode()).as(path + " -> " + r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  static JsonNode cell(JsonNode heatmap, String node, int gpu) {
    for (JsonNode row : heatmap.get("rows")) {
      for (JsonNode rack : row.get("racks")) {
        for (JsonNode n : rack.get("nodes")) {
          if (n.get("node").asText().equals(node)) {
            int i = 0;
            while (n.get("gpu").get(i).asInt() != gpu) {
              i++;
            }
            return JSON.createObjectNode().put("v", n.get("v").get(i).asDouble()).put("l", n.get("l").get(i).asInt());
          }
        }
      }
    }
    throw new AssertionError("no cell " + node + "/" + gpu);
  }

  @Test
  void theHeatmapHasOneCellPerGpuRacksByRowAndEachMetricColoursTheRightCells() throws Exception {
    HttpResponse<String> r = null;
    long[] ms = new long[5];
    for (int i = 0; i < ms.length; i++) {
      long t0 = System.nanoTime();
      r = raw("/api/heatmap?metric=headroom");
      ms[i] = (System.nanoTime() - t0) / 1_000_000;
    }
    System.out.printf("console-it heatmap gpus=%d time_ms=%s payload_bytes=%d%n", fleet.nodes() * 8, java.util.Arrays.toString(ms),
        r.body().length());
    JsonNode h = JSON.readTree(r.body());
    assertThat(h.get("gpus").asInt()).isEqualTo(8000);
    assertThat(h.get("nodes").asInt()).isEqualTo(1000);
    assertThat(h.get("racks").asInt()).isEqualTo(100);
    assertThat(h.get("reporting").asInt()).isEqualTo(8000);
    assertThat(h.get("rows")).hasSize(10);
    assertThat(h.get("rows").get(0).get("racks")).hasSize(10);
    assertThat(h.get("rows").get(3).get("racks").get(4).get("nodes").get(5).get("node").asText()).isEqualTo(FleetScenario.node(3, 4, 5));
    // 86 °C against a slowdown of 90 °C
    assertThat(cell(h, FleetScenario.HOT_NODE, FleetScenario.HOT_GPU).get("v").asDouble()).isEqualTo(4.0);
    assertThat(cell(h, FleetScenario.HOT_NODE, FleetScenario.HOT_GPU).get("l").asInt()).isEqualTo(2);
    assertThat(h.get("levels").get(2).asInt()).isEqualTo(1);
    assertThat(cell(get("/api/heatmap?metric=risk"), FleetScenario.HOT_NODE, FleetScenario.HOT_GPU).get("l").asInt()).isEqualTo(3);
    assertThat(cell(get("/api/heatmap?metric=throttle"), FleetScenario.HOT_NODE, FleetScenario.HOT_GPU).get("l").asInt()).isEqualTo(3);
    JsonNode ecc = get("/api/heatmap?metric=ecc");
    assertThat(cell(ecc, FleetScenario.ECC_NODE, 0).get("l").asInt()).isEqualTo(2);
    assertThat(ecc.get("levels").get(2).asInt()).isEqualTo(1);
    assertThat(r.body().length()).as("payload at 8,000 GPUs").isLessThan(400_000);
  }

  @Test
  void aGpuOverAnHourComesFromTheHypertableOverDaysFromTheRollups() throws Exception {
    String q = "/api/gpu?node=" + FleetScenario.HOT_NODE + "&gpu=" + FleetScenario.HOT_GPU;
    JsonNode hour = get(q + "&last=1h");
    assertThat(hour.get("resolution").asText()).isEqualTo("raw");
    assertThat(hour.get("gpu").get("rack").asText()).isEqualTo("r00-k00");
    assertThat(hour.get("gpu").get("slowdown_temp_c").asDouble()).isEqualTo(90.0);
    assertThat(hour.get("series").size()).isBetween(150, 361);
    JsonNode last = hour.get("series").get(hour.get("series").size() - 1);
    assertThat(last.get("temp_c").asDouble()).isGreaterThan(80);
    assertThat(last.get("throttled_share").asDouble()).isEqualTo(1.0);
    assertThat(hour.get("throttle_reasons_seen")).extracting(JsonNode::asText).containsExactly("hw_thermal");
    assertThat(hour.get("anomalies")).extracting(a -> a.get("alertname").asText()).containsExactly("GpuThermalThrottleRisk");

    JsonNode days = get(q + "&last=2d");
    assertThat(days.get("resolution").asText()).isEqualTo("minute");
    assertThat(days.get("bucket_seconds").asInt()).isEqualTo(480);
    assertThat(days.get("series").size()).isBetween(300, 361);
    assertThat(days.get("series").get(0).get("temp_c").asDouble()).isBetween(60.0, 70.0);

    JsonNode month = get(q + "&last=30d");
    assertThat(month.get("resolution").asText()).isEqualTo("hour");
    assertThat(month.get("bucket_seconds").asInt()).isEqualTo(7200);
    // three days of samples in 2-hour buckets
    assertThat(month.get("series").size()).isBetween(36, 38);
    assertThat(month.get("ecc").asText()).isEqualTo("increase per bucket");
  }

  @Test
  void aGpuInMigModeShowsItsMigDevicesAndOtherGpusNone() throws Exception {
    JsonNode mig = get("/api/gpu?node=" + FleetScenario.MIG_NODE + "&gpu=0&last=1h").get("mig_devices");
    assertThat(mig).hasSize(2);
    assertThat(mig).extracting(d -> d.get("gpu_instance_id").asInt() + "/" + d.get("compute_instance_id").asInt() + " "
        + d.get("profile").asText() + " " + d.get("mem_used_mib").asDouble() + "/" + d.get("mem_total_mib").asDouble())
        .as("the latest sample of each device").containsExactly("2/0 1c.3g.71gb 16925.0/71424.0", "2/1 2c.3g.71gb 16925.0/71424.0");
    assertThat(get("/api/gpu?node=" + FleetScenario.MIG_NODE + "&gpu=1&last=1h").get("mig_devices")).isEmpty();
    assertThat(get("/api/gpu?node=" + FleetScenario.HOT_NODE + "&gpu=" + FleetScenario.HOT_GPU + "&last=1h").get("mig_devices")).isEmpty();
  }

  @Test
  void railsOverTimeMarkTheDegradedRail() throws Exception {
    JsonNode h = get("/api/rails/history?last=1h");
    List<JsonNode> rail2 = new ArrayList<>();
    h.get("series").forEach(p -> {
      if (p.get("rail").asInt() == 2) {
        rail2.add(p);
      }
    });
    assertThat(h.get("series").size()).isEqualTo(4 * rail2.size());
    assertThat(rail2.get(0).get("ports_down").asInt()).isZero();
    JsonNode lastBucket = rail2.get(rail2.size() - 1);
    assertThat(lastBucket.get("ports_down").asInt()).isEqualTo(1);
    assertThat(lastBucket.get("degraded_ports").get(0).asText()).isEqualTo(FleetScenario.node(0, 0, 1) + "/mlx5_2:1");
    JsonNode days = get("/api/rails/history?last=2d");
    assertThat(days.get("resolution").asText()).isEqualTo("minute");
    assertThat(days.get("series")).isNotEmpty();
    JsonNode latest = get("/api/rails");
    assertThat(latest).hasSize(4);
    assertThat(latest.get(2).get("ports_up").asInt()).isEqualTo(7);
  }

  @Test
  void nvlinkThroughputPerNodeNextToTheRails() throws Exception {
    JsonNode nodes = get("/api/rails/nvlink");
    assertThat(nodes).hasSize(2);
    JsonNode dcgm = nodes.get(0);
    assertThat(dcgm.get("node").asText()).isEqualTo(FleetScenario.NVLINK_DCGM_NODE);
    assertThat(dcgm.get("links").asInt()).isEqualTo(1);
    assertThat(dcgm.get("nvlink_tx_gbps").asDouble()).isCloseTo(20.0, within(1e-9));
    assertThat(dcgm.get("nvlink_rx_gbps").asDouble()).isCloseTo(10.0, within(1e-9));
    JsonNode smi = nodes.get(1);
    assertThat(smi.get("node").asText()).isEqualTo(FleetScenario.NVLINK_SMI_NODE);
    assertThat(smi.get("links").asInt()).isEqualTo(2);
    // 2 links x 1 GB/s = 16 Gbit/s; the reset step and the row 20 minutes back give no rate
    assertThat(smi.get("nvlink_tx_gbps").asDouble()).isCloseTo(16.0, within(1e-9));
    assertThat(smi.get("nvlink_rx_gbps").asDouble()).isCloseTo(8.0, within(1e-9));
    assertThat(smi.get("cluster").asText()).isEqualTo(FleetScenario.CLUSTER);
  }

  @Test
  void anIncidentWithItsTimelineRunbookAndBlastRadius() throws Exception {
    JsonNode recent = get("/api/incidents/recent?last=24h");
    assertThat(recent).extracting(i -> i.get("fingerprint").asText() + ":" + i.get("status").asText())
        .containsExactly(FleetScenario.INCIDENT + ":firing", FleetScenario.EARLIER_INCIDENT + ":resolved");
    assertThat(get("/api/incidents/recent?last=1h")).hasSize(1);
    // still firing, its last update nine minutes ago
    assertThat(get("/api/incidents/recent?last=5m")).extracting(i -> i.get("fingerprint").asText()).containsExactly(FleetScenario.INCIDENT);
    assertThat(recent.get(0).get("member_count").asInt()).isEqualTo(2);
    assertThat(recent.get(0).get("runbook_url").asText()).endsWith("#coolantflowlow");
    assertThat(get("/api/incidents/recent?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z")).isEmpty();

    HttpResponse<String> runbook = raw("/" + recent.get(0).get("runbook_url").asText().replaceFirst("#.*", ""));
    assertThat(runbook.statusCode()).isEqualTo(200);
    assertThat(runbook.body()).contains("<h2 id=\"coolantflowlow\">CoolantFlowLow</h2>");

    JsonNode d = get("/api/incident?fingerprint=" + FleetScenario.INCIDENT);
    assertThat(d.get("incident").get("blast_radius").get("node_list").get(0).asText()).isEqualTo(FleetScenario.HOT_NODE);
    assertThat(d.get("timeline")).extracting(e -> e.get("kind").asText() + ":" + e.get("alertname").asText() + ":"
        + e.get("version").asText())
        .containsExactly("anomaly:CoolantFlowLow:null", "alert:CoolantFlowLow:1", "anomaly:GpuThermalThrottleRisk:null",
            "alert:CoolantFlowLow:2");

    assertThat(get("/api/incident?fingerprint=" + FleetScenario.EARLIER_INCIDENT).get("timeline"))
        .extracting(e -> e.get("kind").asText() + ":" + e.get("status").asText())
        .containsExactly("anomaly:firing", "alert:firing", "anomaly:resolved", "alert:resolved");

    // the jobs it hits: in the list (the page's line), in the incident, and the job's own incident list with its cost
    assertThat(recent.get(0).get("jobs_line").asText()).isEqualTo(FleetScenario.JOB_LINE);
    assertThat(recent.get(1).get("jobs").isNull()).isTrue();
    JsonNode hit = d.get("incident").get("jobs").get(0);
    assertThat(hit.get("job").asText()).isEqualTo(FleetScenario.JOB);
    assertThat(hit.get("gpus_affected").asInt()).isEqualTo(8);
    assertThat(hit.get("job_gpus").asInt()).isEqualTo(FleetScenario.JOB_GPUS);
    assertThat(hit.get("gpu_hours_at_risk").asDouble()).isEqualTo(32.0);
    JsonNode job = get("/api/job/incidents?job=" + FleetScenario.JOB);
    assertThat(job.get("incident_count").asInt()).isEqualTo(1);
    assertThat(job.get("gpu_hours_at_risk_total").asDouble()).isEqualTo(32.0);
    JsonNode row = job.get("incidents").get(0);
    assertThat(row.get("fingerprint").asText()).isEqualTo(FleetScenario.INCIDENT);
    assertThat(row.get("status").asText()).isEqualTo("firing");
    assertThat(row.get("gpus_affected").asInt()).isEqualTo(8);
    assertThat(row.get("job_gpus").asInt()).isEqualTo(64);
    assertThat(row.get("checkpoint_age_s").asDouble()).isEqualTo(1800.0);
    assertThat(get("/api/job/incidents?job=no-such-job").get("incidents")).isEmpty();

    JsonNode active = get("/api/incidents");
    assertThat(active.get("incidents")).hasSize(1);
    assertThat(active.get("source").asText()).isEqualTo("alerts-table");
    assertThat(active.get("incidents").get(0).get("version").asInt()).isEqualTo(2);
  }

  @Test
  void checkpointsAgainstTheirSlo() throws Exception {
    JsonNode jobs = get("/api/checkpoints?last=6h");
    assertThat(jobs).hasSize(1);
    JsonNode j = jobs.get(0);
    assertThat(j.get("job").asText()).isEqualTo(FleetScenario.JOB);
    assertThat(j.get("checkpoints").asInt()).isEqualTo(12);
    assertThat(j.get("compliant_share").asDouble()).isEqualTo(0.75);
    assertThat(j.get("recommended_interval_s").asDouble()).isEqualTo(1800.0);
    assertThat(j.get("burn_rate_5m").asDouble()).isEqualTo(3.0);
    assertThat(j.get("points")).hasSize(12);
    JsonNode slow = j.get("points").get(3);
    assertThat(slow.get("compliant").asBoolean()).isFalse();
    // 2 TB in 140 s reached 14.3 GB/s where the 120 s SLO needs 16.7 GB/s
    assertThat(slow.get("throughput_gbps").asDouble()).isCloseTo(14.29, org.assertj.core.data.Offset.offset(0.01));
    assertThat(slow.get("slo_throughput_gbps").asDouble()).isCloseTo(16.67, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void theOverviewQueriesRunAgainstTheSchema() throws Exception {
    JsonNode s = get("/api/summary");
    assertThat(s.get("nodes").asInt()).isEqualTo(1000);
    assertThat(s.get("gpus").asInt()).isEqualTo(8000);
    assertThat(s.get("max_temp_c").asDouble()).isEqualTo(86.0);
    assertThat(s.get("firing_incidents").asInt()).isEqualTo(1);
    assertThat(s.get("anomalies_fired_1h").asInt()).isEqualTo(2);
    assertThat(get("/api/gpus/hottest?limit=3").get(0).get("node").asText()).isEqualTo(FleetScenario.HOT_NODE);
    assertThat(get("/api/thermal?limit=3").get(0).get("level").asText()).isEqualTo("critical");
    assertThat(get("/api/anomalies?minutes=60")).hasSize(2);
    assertThat(get("/api/health").get("database").asText()).isEqualTo("ok");
  }

  @Test
  void badInputOnEveryEndpointGetsAClear4xxWithoutSqlOrStackTrace() throws Exception {
    String gpu = "/api/gpu?node=" + FleetScenario.HOT_NODE + "&gpu=" + FleetScenario.HOT_GPU;
    List<Object[]> cases = List.of(
        new Object[] {"/api/gpu?node=no-such-node&gpu=0", 404, "no GPU 0 on node 'no-such-node'"},
        new Object[] {"/api/gpu?node=" + FleetScenario.HOT_NODE + "&gpu=7&last=1h", 200, null},
        new Object[] {"/api/gpu?node=" + enc("x'; DROP TABLE gpu; --") + "&gpu=0", 404, "no GPU 0 on node"},
        new Object[] {"/api/gpu?gpu=0", 400, "node is required"},
        new Object[] {"/api/gpu?node=" + FleetScenario.HOT_NODE, 400, "gpu is required"},
        new Object[] {"/api/gpu?node=" + FleetScenario.HOT_NODE + "&gpu=300", 400, "gpu must be between 0 and 255"},
        new Object[] {gpu + "&from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z", 400, "from must be before to"},
        new Object[] {gpu + "&from=yesterday", 400, "from must be an ISO-8601 time"},
        new Object[] {gpu + "&from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", 400, "the range is at most 31 days"},
        new Object[] {gpu + "&last=400d", 400, "the range is at most 31 days"},
        new Object[] {gpu + "&last=1y", 400, "last must be a whole number and a unit"},
        new Object[] {gpu + "&last=1h&from=2026-03-01T00:00:00Z", 400, "either last or from/to"},
        new Object[] {"/api/rails/history?last=9999999d", 400, "the range is at most 31 days"},
        new Object[] {"/api/rails/history?to=2026-13-01T00:00:00Z", 400, "to must be an ISO-8601 time"},
        new Object[] {"/api/incidents/recent?last=0h", 400, "last must be"},
        new Object[] {"/api/rails/history?last=99999999d", 400, "last must be"},
        new Object[] {"/api/incidents/recent?limit=100000", 400, "limit must be between 1 and 500"},
        new Object[] {"/api/incident?fingerprint=nope", 404, "no incident with fingerprint 'nope'"},
        new Object[] {"/api/incident", 400, "fingerprint is required"},
        new Object[] {"/api/checkpoints?last=60d", 400, "at most 31 days"},
        new Object[] {"/api/job/incidents", 400, "job is required"},
        new Object[] {"/api/job/incidents?job=" + enc("x' OR '1'='1") + "&last=60d", 400, "at most 31 days"},
        new Object[] {"/api/heatmap?metric=temperature", 400, "metric must be one of headroom, risk, ecc, throttle"},
        new Object[] {"/api/anomalies?minutes=99999999", 400, "minutes must be between"},
        new Object[] {"/api/thermal?limit=x", 400, "limit must be a whole number"},
        new Object[] {"/api/nothing", 404, "no such path"});
    for (Object[] c : cases) {
      HttpResponse<String> r = raw((String) c[0]);
      assertThat(r.statusCode()).as(c[0] + " -> " + r.body()).isEqualTo(c[1]);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
      if (c[2] != null) {
        assertThat(JSON.readTree(r.body()).get("error").asText()).as((String) c[0]).contains((String) c[2]);
      }
      assertThat(r.body()).as((String) c[0]).doesNotContainIgnoringCase("select ").doesNotContain("Exception")
          .doesNotContain("at io.fleetscope").doesNotContain("SQLSTATE");
    }
  }
}
