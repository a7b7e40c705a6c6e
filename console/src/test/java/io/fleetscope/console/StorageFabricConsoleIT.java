package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.write.BatchWriter;
import io.fleetscope.sink.write.SinkRecord;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The storage and fabric views of the console (their API over HTTP as the reader login, and the
 * pages in headless Chromium) over a real TimescaleDB migrated and filled by the sink: 8 nodes'
 * NVMe and Lustre samples over the last 10 minutes, one NVMe with rising media errors and its
 * NvmeMediaErrors firing; 8 RoCE ports on one rail, one with PFC off and its FabricConfigDrift firing;
 * 4 InfiniBand ports on rail 4, one trained at 2 lanes.
 */
class StorageFabricConsoleIT {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient http = HttpClient.newHttpClient();
  static final Path OUT = Path.of("target", "console-e2e");
  static final String CL = "console-sf";
  static final String BAD_NVME = "sf-n3";
  static final String BAD_PORT = "sf-n5";
  static ConsoleServer console;
  static String jdbcUrl;

  @BeforeAll
  static void start() throws Exception {
    jdbcUrl = TestServices.postgres().createDatabase("console_storage_fabric_it");
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    List<SinkRecord> batch = new ArrayList<>();
    for (int n = 0; n < 8; n++) {
      String node = "sf-n" + n;
      for (int i = 0; i <= 10; i++) {
        long ts = now.minus(Duration.ofMinutes(10 - i)).toEpochMilli();
        long errors = node.equals(BAD_NVME) && i > 5 ? 3L * (i - 5) : 0;
        add(batch, Topics.STORAGE, StorageSample.newBuilder().setTs(ts).setCluster(CL).setNode(node).setAgentSeq(i)
            .setSource("nvme-smart-log").setTier("local-nvme").setDevice("nvme0").setCriticalWarning(0).setMediaErrors(errors)
            .setPercentageUsed(2).setAvailableSparePct(100).setTempC(41.0).setErrLogEntries(errors).setReadBytes(0L)
            .setWriteBytes(600_000_000L * i).build());
        add(batch, Topics.STORAGE, StorageSample.newBuilder().setTs(ts).setCluster(CL).setNode(node).setAgentSeq(100 + i)
            .setSource("lustre-llite").setTier("lustre").setDevice("lustre-ffff9a0c1b2d3000").setReadBytes(0L)
            .setWriteBytes(120_000_000L * i).setReadOps(0L).setWriteOps(1000L * i).setReadTimeMs(0L).setWriteTimeMs(8000L * i).build());
      }
      add(batch, Topics.FABRIC_CONFIG, PortConfig.newBuilder().setTs(now.minus(Duration.ofHours(1)).toEpochMilli()).setCluster(CL)
          .setNode(node).setAgentSeq(1).setSource("sysfs,mlnx_qos").setDevice("mlx5_0").setPort(1).setNetdev("eth0").setRail(0)
          .setLinkLayer("Ethernet").setMtuBytes(4200).setTrust("dscp").setPfcPrios(node.equals(BAD_PORT) ? List.of() : List.of(3))
          .setEcnNpPrios(List.of(3)).setEcnRpPrios(List.of(3)).setCnpDscp(48).setDcqcn(Map.of()).build());
    }
    for (int n = 0; n < 4; n++) {
      add(batch, Topics.FABRIC_CONFIG, PortConfig.newBuilder().setTs(now.minus(Duration.ofHours(1)).toEpochMilli()).setCluster(CL)
          .setNode("sf-n" + n).setAgentSeq(2).setSource("sysfs").setDevice("mlx5_4").setPort(1).setRail(4).setLinkLayer("InfiniBand")
          .setDcqcn(Map.of()).setRateGbps(n == 2 ? 200.0 : 400.0).setLinkWidth(n == 2 ? "2X" : "4X").setLinkSpeed("NDR")
          .setCapMask("0xa651ec48").setActiveMtu(4096).setMaxMtu(4096)
          // sf-n2's SL-to-VL table maps every SL to VL 0; its peers' SL i to VL i mod 2
          .setSl2vl(n == 2 ? java.util.Collections.nCopies(16, 0) : List.of(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1)).build());
    }
    long fired = now.minus(Duration.ofMinutes(4)).toEpochMilli();
    add(batch, Topics.ANOMALIES, Anomaly.newBuilder().setTs(fired).setFingerprint("sf-media").setStatus("firing").setStartsAt(fired)
        .setLabels(Map.of("alertname", "NvmeMediaErrors", "severity", "warning", "cluster", CL, "node", BAD_NVME,
            "tier", "local-nvme", "device", "nvme0")).build());
    add(batch, Topics.ANOMALIES, Anomaly.newBuilder().setTs(fired).setFingerprint("sf-pfc").setStatus("firing").setStartsAt(fired)
        .setLabels(Map.of("alertname", "FabricConfigDrift", "severity", "warning", "cluster", CL, "node", BAD_PORT,
            "device", "mlx5_0", "port", "1", "field", "pfc_prios"))
        .setAnnotations(Map.of("summary", "fabric configuration drift on " + BAD_PORT + " mlx5_0/1 (eth0): pfc_prios is [], expected [3] (site policy)"))
        .build());
    try (Connection c = DriverManager.getConnection(jdbcUrl, LocalPostgres.SUPERUSER, "")) {
      Migrator.migrate(c);
      c.setAutoCommit(false);
      BatchWriter.Result r = new BatchWriter().write(c, batch);
      c.commit();
      assertThat(r.rejects()).isEmpty();
    }
    console = new ConsoleServer(new ConsoleConfig(0, jdbcUrl, LocalPostgres.READER_LOGIN, "", "", Duration.ofMinutes(30),
        "127.0.0.1")).start();
  }

  private static void add(List<SinkRecord> batch, String topic, SpecificRecord r) {
    batch.add(new SinkRecord(topic, 0, batch.size(), null, null, r));
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

  @Test
  void storageListsEveryDeviceWithTheDegradedNvmeFirst() throws Exception {
    JsonNode s = get("/api/storage?last=15m");
    assertThat(s.get("devices").asInt()).isEqualTo(16);
    assertThat(s.get("degraded").asInt()).isEqualTo(1);
    JsonNode first = s.get("tiers").get(0);
    assertThat(first.get("node").asText()).isEqualTo(BAD_NVME);
    assertThat(first.get("state").asText()).isEqualTo("degraded");
    assertThat(first.get("alerts").asText()).isEqualTo("NvmeMediaErrors (warning)");
    assertThat(first.get("media_errors").asLong()).isEqualTo(15);
    assertThat(first.get("media_errors_added").asLong()).isEqualTo(15);
    assertThat(first.get("write_mb_s").asDouble()).isEqualTo(10.0); // 600 MB a minute
    JsonNode lustre = get("/api/storage?last=15m&tier=lustre");
    assertThat(lustre.get("devices").asInt()).isEqualTo(8);
    assertThat(lustre.get("tiers").get(0).get("write_ms_per_op").asDouble()).isEqualTo(8.0);
    assertThat(lustre.get("tiers").get(0).get("write_mb_s").asDouble()).isEqualTo(2.0);
    assertThat(get("/api/storage?last=15m&node=sf-n1").get("devices").asInt()).isEqualTo(2);
    assertThat(get("/api/storage?from=2020-01-01T00:00:00Z&to=2020-01-01T01:00:00Z").get("devices").asInt()).isZero();
  }

  @Test
  void fabricListsEveryPortWithTheDriftingOneFirst() throws Exception {
    JsonNode f = get("/api/fabric");
    assertThat(f.get("ports").asInt()).isEqualTo(12);
    assertThat(f.get("drifting").asInt()).isEqualTo(2);
    JsonNode first = f.get("config").get(0);
    assertThat(first.get("node").asText()).isEqualTo(BAD_PORT);
    assertThat(first.get("pfc_prios")).isEmpty();
    assertThat(first.get("differs_from_rail").toString()).isEqualTo("[\"pfc_prios\"]");
    assertThat(first.get("drift_fields").toString()).isEqualTo("[\"pfc_prios\"]");
    assertThat(first.get("drift").asText()).contains("pfc_prios is [], expected [3] (site policy)");
    JsonNode ib = f.get("config").get(1);
    assertThat(ib.get("node").asText()).isEqualTo("sf-n2");
    assertThat(ib.get("link_width").asText()).isEqualTo("2X");
    assertThat(ib.get("differs_from_rail").toString()).isEqualTo("[\"rate_gbps\",\"link_width\",\"sl2vl\"]");
    assertThat(ib.get("active_mtu").asInt()).isEqualTo(4096);
    assertThat(ib.get("max_mtu").asInt()).isEqualTo(4096);
    assertThat(ib.get("sl2vl").toString()).isEqualTo("[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]");
    assertThat(f.get("config").get(2).get("drift_fields")).isEmpty();
    assertThat(f.get("config").get(2).get("differs_from_rail")).isEmpty();
    assertThat(get("/api/fabric?only_drift=1").get("ports").asInt()).isEqualTo(2);
    assertThat(get("/api/fabric?rail=1").get("ports").asInt()).isZero();
  }

  @Test
  void badParametersAreRefusedWithTheReason() throws Exception {
    HttpResponse<String> tier = raw("/api/storage?tier=tape");
    assertThat(tier.statusCode()).isEqualTo(400);
    assertThat(tier.body()).contains("tier must be one of local-nvme, lustre, nfs, got 'tape'");
    HttpResponse<String> drift = raw("/api/fabric?only_drift=yes");
    assertThat(drift.statusCode()).isEqualTo(400);
    assertThat(drift.body()).contains("only_drift must be a whole number");
    assertThat(raw("/api/storage?last=400d").statusCode()).isEqualTo(400);
    assertThat(raw("/api/storage?node=" + "x".repeat(201)).statusCode()).isEqualTo(400);
  }

  @Test
  void bothPagesRenderInTheBrowser() throws Exception {
    Files.createDirectories(OUT);
    try (DevTools chrome = DevTools.launch(OUT.resolve("chromium-storage-fabric.log"), 1600, 1000)) {
      Duration wait = Duration.ofSeconds(30);
      chrome.navigate(console.url() + "/#/storage");
      chrome.await("the storage page loaded", "document.body.dataset.loaded === '#/storage'", wait);
      assertThat(chrome.eval("document.getElementById('ssum').innerText").asText()).contains("16 devices and mounts", "1 degraded");
      assertThat(chrome.eval("document.querySelector('#slist tr:nth-child(2)').innerText").asText())
          .contains("degraded", BAD_NVME, "nvme0", "15 (+15)", "NvmeMediaErrors (warning)");
      assertThat(chrome.eval("document.querySelector('header nav a.on').getAttribute('href')").asText()).isEqualTo("#/storage");
      chrome.screenshot(OUT.resolve("storage.png"));
      chrome.navigate(console.url() + "/#/fabric/drift");
      chrome.await("the fabric page loaded", "document.body.dataset.loaded === '#/fabric/drift'", wait);
      assertThat(chrome.eval("document.getElementById('fsum').innerText").asText()).contains("2 ports", "2 drifting");
      assertThat(chrome.eval("document.querySelector('#flist tr:nth-child(2)').innerText").asText())
          .contains(BAD_PORT, "mlx5_0/1 (eth0)", "[]", "pfc_prios", "expected [3] (site policy)");
      assertThat(chrome.eval("document.querySelector('#flist tr:nth-child(3)').innerText").asText())
          .contains("sf-n2", "mlx5_4/1", "InfiniBand", "200 Gb/s 2X NDR", "0xa651ec48", "rate_gbps link_width sl2vl", "4096",
              "[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]");
      assertThat(chrome.eval("document.querySelector('#flist tr:nth-child(3) td:nth-child(13)').innerText").asText())
          .isEqualTo("4096");
      assertThat(chrome.eval("document.querySelector('#flist tr:nth-child(3) td:nth-child(14) b.warning').innerText").asText())
          .isEqualTo("[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]");
      assertThat(chrome.eval("document.querySelector('#flist tr:nth-child(3) b.warning').innerText").asText())
          .isEqualTo("200 Gb/s 2X NDR");
      chrome.screenshot(OUT.resolve("fabric.png"));
    }
  }
}
