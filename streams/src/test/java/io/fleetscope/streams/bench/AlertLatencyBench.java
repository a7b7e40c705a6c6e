package io.fleetscope.streams.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.contract.Fingerprint;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalAlertmanager;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import io.fleetscope.stack.services.TestServices;
import io.fleetscope.streams.CorrelatorApp;
import io.fleetscope.streams.CorrelatorConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a test (its name matches neither *Test nor *IT): anomaly record -> Alertmanager
 * latency on the real broker, registry and Alertmanager. Each round produces N distinct anomalies
 * (one incident each, the worst case for delivery) at a fixed rate; each carries its send time in an
 * annotation, and Alertmanager's {@code updatedAt} (set when it received the alert) gives the arrival
 * time, so one GET at the end measures every alert without polling skew. Run:
 *
 * <pre>
 * mvn -B -o -pl streams verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=AlertLatencyBench -Dbench.anomalies=1000 -Dbench.rate=100 -Dbench.rounds=3
 * </pre>
 * Results go to stdout and target/bench-alert-latency.txt.
 */
class AlertLatencyBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void anomalyToAlertmanagerLatency() throws Exception {
    int n = Integer.getInteger("bench.anomalies", 1000);
    int rate = Integer.getInteger("bench.rate", 100);
    int rounds = Integer.getInteger("bench.rounds", 3);
    int warmup = Integer.getInteger("bench.warmup", 300);
    LocalKafka kafka = TestServices.kafka();
    SchemaRegistryServer registry = TestServices.registry();
    Path amConfig = Path.of("..", "deploy", "alertmanager", "alertmanager.yml").toAbsolutePath();
    StringBuilder report = new StringBuilder();
    report.append(String.format("anomalies=%d rate_per_s=%d rounds=%d warmup=%d%n", n, rate, rounds, warmup));
    List<long[]> results = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      LocalAlertmanager am = TestServices.alertmanager(amConfig);
      String p = "bench-" + round + "-";
      Map<String, String> o = new HashMap<>();
      o.put(CorrelatorConfig.APPLICATION_ID, p + "correlator");
      o.put(CorrelatorConfig.KAFKA, kafka.bootstrapServers());
      o.put(CorrelatorConfig.REGISTRY, registry.url());
      o.put(CorrelatorConfig.ALERTMANAGER, am.url());
      o.put(CorrelatorConfig.HTTP_PORT, "-1");
      o.put(CorrelatorConfig.STATE_DIR, Files.createTempDirectory("bench-correlator").toString());
      o.put(CorrelatorConfig.TOPIC_ANOMALIES, p + "anomalies");
      o.put(CorrelatorConfig.TOPIC_INVENTORY, p + "inventory");
      o.put(CorrelatorConfig.TOPIC_ALERTS, p + "alerts");
      o.put(CorrelatorConfig.TOPIC_DLQ, p + "dlq");
      // default tick, hold-down 0 (a hold-down delays on purpose); no re-send during the round so that
      // Alertmanager's updatedAt is the first arrival
      o.put(CorrelatorConfig.MIN_FIRING, "0");
      o.put(CorrelatorConfig.RESEND, "600");
      o.put(CorrelatorConfig.VALIDITY, "1200");
      CorrelatorConfig config = CorrelatorConfig.of(o);
      kafka.createTopic(config.anomaliesTopic(), 3);
      kafka.createCompactedTopic(config.inventoryTopic(), 1);
      kafka.createTopic(config.alertsTopic(), 3);
      kafka.createTopic(config.dlqTopic(), 1);
      Properties pp = new Properties();
      pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      pp.put(ProducerConfig.LINGER_MS_CONFIG, 0);
      try (CorrelatorApp.Running correlator = CorrelatorApp.start(config, new RestSchemaRegistryClient(registry.url()),
          CorrelatorApp.sinkFor(config));
           KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(pp, new StringSerializer(),
               new AvroSerializer<>(new RestSchemaRegistryClient(registry.url())))) {
        InventoryRecord node = InventoryRecord.newBuilder().setTs(System.currentTimeMillis()).setCluster("bench")
            .setKind("node").setId("warmup").setRack("r1").build();
        producer.send(new ProducerRecord<>(config.inventoryTopic(), "warmup", node)).get();
        // warm-up (not measured): the correlator is a long-running service; this gets the consumer group
        // joined, registry ids cached and the hot paths compiled before measuring
        long intervalNs = 1_000_000_000L / rate;
        long next = System.nanoTime();
        for (int i = 0; i < Math.max(1, warmup); i++) {
          LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
          next += intervalNs;
          Anomaly warm = anomaly("warmup", i, System.currentTimeMillis());
          producer.send(new ProducerRecord<>(config.anomaliesTopic(), warm.getFingerprint(), warm));
        }
        producer.flush();
        awaitAlerts(am, Math.max(1, warmup), Duration.ofSeconds(180));

        next = System.nanoTime();
        for (int i = 0; i < n; i++) {
          LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
          next += intervalNs;
          Anomaly a = anomaly("r" + round, i, System.currentTimeMillis());
          producer.send(new ProducerRecord<>(config.anomaliesTopic(), a.getFingerprint(), a));
        }
        producer.flush();
        List<JsonNode> alerts = awaitAlerts(am, n + Math.max(1, warmup), Duration.ofSeconds(180));
        long[] lat = latencies(alerts);
        results.add(lat);
        String line = String.format("round=%d delivered=%d p50_ms=%d p90_ms=%d p99_ms=%d max_ms=%d", round, lat.length,
            pct(lat, 50), pct(lat, 90), pct(lat, 99), lat[lat.length - 1]);
        System.out.println("BENCH " + line);
        report.append(line).append('\n');
      } finally {
        am.close();
      }
    }
    List<Long> p50 = new ArrayList<>();
    List<Long> p99 = new ArrayList<>();
    for (long[] l : results) {
      p50.add(pct(l, 50));
      p99.add(pct(l, 99));
    }
    Collections.sort(p50);
    Collections.sort(p99);
    String summary = String.format("median over rounds: p50_ms=%d p99_ms=%d (target p99 <= 2000 ms)",
        p50.get(p50.size() / 2), p99.get(p99.size() / 2));
    System.out.println("BENCH " + summary);
    report.append(summary).append('\n');
    Files.writeString(Path.of("target", "bench-alert-latency.txt"), report.toString());
  }

  private static Anomaly anomaly(String prefix, int i, long sentMs) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("alertname", "GpuXid");
    labels.put("severity", "warning");
    labels.put("cluster", "bench");
    labels.put("node", prefix + "-node-" + (i / 8));
    labels.put("gpu", String.valueOf(i % 8));
    labels.put("xid", "79");
    return Anomaly.newBuilder().setTs(sentMs).setFingerprint(Fingerprint.of(labels)).setStatus("firing")
        .setLabels(labels).setAnnotations(Map.of("summary", "bench", "bench_sent_ms", Long.toString(sentMs)))
        .setStartsAt(sentMs).setSource("bench").build();
  }

  private static long[] latencies(List<JsonNode> alerts) {
    List<Long> l = new ArrayList<>();
    for (JsonNode a : alerts) {
      JsonNode sent = a.path("annotations").path("bench_sent_ms");
      if (sent.isMissingNode() || a.path("labels").path("node").asText().startsWith("warmup")) {
        continue;
      }
      long arrived = Instant.parse(a.get("updatedAt").asText()).toEpochMilli();
      l.add(arrived - Long.parseLong(sent.asText()));
    }
    return l.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  static long pct(long[] sorted, int p) {
    int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(idx, sorted.length - 1))];
  }

  private static List<JsonNode> awaitAlerts(LocalAlertmanager am, int count, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(am.url() + "/api/v2/alerts")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      List<JsonNode> out = new ArrayList<>();
      JSON.readTree(r.body()).forEach(out::add);
      if (out.size() >= count) {
        return out;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + out.size() + " of " + count + " alerts reached Alertmanager within " + timeout);
      }
      Thread.sleep(250);
    }
  }
}
