package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalAlertmanager;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import io.fleetscope.stack.services.TestServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The correlator on the real broker and registry, delivering to a real Alertmanager started with the
 * example deploy/alertmanager/alertmanager.yml: a rack cooling failure heating 32 GPUs is ONE incident
 * in Alertmanager, per-GPU alerts on that rack are inhibited, Alertmanager restarts lose nothing, and
 * a resolution sent while Alertmanager is unresponsive arrives once it answers again. The page names the job
 * that holds the rack's GPUs with its GPU-hours at risk (fleet.jobs.v1 and fleet.ckpt.v1 on the real broker).
 */
class CorrelatorAlertmanagerIT {
  private static final String P = "it-correlator-am-";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private static LocalKafka kafka;
  private static SchemaRegistryServer registry;
  private static LocalAlertmanager am;
  private static CorrelatorConfig config;
  private static CorrelatorApp.Running correlator;
  private static KafkaProducer<String, SpecificRecord> producer;
  private static Path stateDir;

  @BeforeAll
  static void start() throws Exception {
    kafka = TestServices.kafka();
    registry = TestServices.registry();
    am = TestServices.alertmanager(AlertmanagerConfigIT.CONFIG.toAbsolutePath());
    stateDir = Files.createTempDirectory("correlator-it");
    Map<String, String> o = new HashMap<>();
    o.put(CorrelatorConfig.APPLICATION_ID, P + "app");
    o.put(CorrelatorConfig.KAFKA, kafka.bootstrapServers());
    o.put(CorrelatorConfig.REGISTRY, registry.url());
    o.put(CorrelatorConfig.ALERTMANAGER, am.url());
    o.put(CorrelatorConfig.HTTP_PORT, "0");
    o.put(CorrelatorConfig.STATE_DIR, stateDir.toString());
    o.put(CorrelatorConfig.TOPIC_ANOMALIES, P + "anomalies");
    o.put(CorrelatorConfig.TOPIC_INVENTORY, P + "inventory");
    o.put(CorrelatorConfig.TOPIC_ALERTS, P + "alerts");
    o.put(CorrelatorConfig.TOPIC_DLQ, P + "dlq");
    o.put(CorrelatorConfig.TOPIC_JOBS, P + "jobs"); // created by the correlator at start, as it does on a fresh cluster
    o.put(CorrelatorConfig.TOPIC_CKPT, P + "ckpt");
    o.put(CorrelatorConfig.MIN_FIRING, "0");
    o.put(CorrelatorConfig.FLAP_HOLD, "0");
    o.put(CorrelatorConfig.RESEND, "2");
    // long validity: an alert that stops being re-sent stays active in Alertmanager for 10 minutes, so the
    // incident disappearing within the test proves that its resolution was delivered
    o.put(CorrelatorConfig.VALIDITY, "600");
    o.put(CorrelatorConfig.RESOLVED_RESEND, "120");
    o.put(CorrelatorConfig.RETRY_INITIAL, "200");
    o.put(CorrelatorConfig.RETRY_MAX, "1000");
    o.put(CorrelatorConfig.HTTP_TIMEOUT, "1000");
    o.put(CorrelatorConfig.TICK, "100");
    config = CorrelatorConfig.of(o);
    kafka.createTopic(config.anomaliesTopic(), 3);
    kafka.createCompactedTopic(config.inventoryTopic(), 1);
    kafka.createTopic(config.alertsTopic(), 3);
    kafka.createTopic(config.dlqTopic(), 1);
    correlator = CorrelatorApp.start(config, new RestSchemaRegistryClient(registry.url()), CorrelatorApp.sinkFor(config));
    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    producer = new KafkaProducer<>(pp, new StringSerializer(), new AvroSerializer<>(new RestSchemaRegistryClient(registry.url())));
  }

  @AfterAll
  static void stop() {
    if (producer != null) {
      producer.close();
    }
    if (correlator != null) {
      correlator.close();
    }
  }

  @Test
  void rackCoolingFailureIsOneIncidentInAlertmanagerAndSurvivesRestartsAndOutages() throws Exception {
    Instant t0 = Instant.now().minusSeconds(60);
    for (InventoryRecord r : Fleet.inventory()) {
      producer.send(new ProducerRecord<>(config.inventoryTopic(), r.getId(), r));
    }
    // llama-70b-run3 holds the 32 GPUs of rack r07; its last checkpoint completed 47 min ago
    for (int n = 1; n <= 4; n++) {
      String node = Fleet.node(7, n);
      producer.send(new ProducerRecord<>(config.jobsTopic(), node, JobAllocations.newBuilder().setTs(t0.toEpochMilli())
          .setCluster(Fleet.CLUSTER).setNode(node).setAgentSeq(1).setAllocations(List.of(GpuAllocation.newBuilder()
              .setJob("llama-70b-run3").setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).build())).build()));
    }
    long ckptDone = Instant.now().minus(Duration.ofMinutes(47)).toEpochMilli();
    producer.send(new ProducerRecord<>(config.ckptTopic(), Fleet.node(7, 1), CheckpointEvent.newBuilder().setTs(ckptDone)
        .setCluster(Fleet.CLUSTER).setNode(Fleet.node(7, 1)).setAgentSeq(2).setJob("llama-70b-run3").setStep(12_000)
        .setBytes(1_400_000_000_000L).setStartedTs(ckptDone - 40_000).setFinishedTs(ckptDone).setTier("lustre")
        .setStatus("completed").build()));
    producer.flush();
    await("the correlator's global stores have the job and its checkpoint", Duration.ofSeconds(30), () -> {
      try {
        return globalStore(IncidentProcessor.JOBS).get(Fleet.node(7, 4)) != null
            && globalStore(io.fleetscope.streams.jobs.LastCheckpointProcessor.STORE).get(Fleet.CLUSTER + "|llama-70b-run3") != null;
      } catch (org.apache.kafka.streams.errors.InvalidStateStoreException e) {
        return false;
      }
    });

    // 1. the coolant flow drops on cdu-3 loop-a, then the 32 GPUs of rack r07 heat up
    Anomaly cause = Fleet.coolantFlowLow(t0);
    send(cause);
    await("the cooling incident reaches Alertmanager", Duration.ofSeconds(90), () -> coolingIncident() != null);
    List<Anomaly> hot = Fleet.rack07Hot(t0.plusSeconds(5));
    hot.forEach(this::sendQuietly);
    producer.flush();
    await("the incident's blast radius is 32 GPUs in Alertmanager", Duration.ofSeconds(30),
        () -> coolingIncident() != null && "32 GPUs, 4 nodes".equals(coolingIncident().get("annotations").path("blast_radius").asText()));
    List<JsonNode> alerts = amAlerts();
    assertThat(alerts).as("one incident in Alertmanager, not 32 alerts: %s", alerts).hasSize(1);
    JsonNode inc = alerts.get(0);
    assertThat(inc.get("labels").get("scope").asText()).isEqualTo("cdu_loop");
    assertThat(inc.get("labels").get("rack").asText()).isEqualTo("r07");
    assertThat(inc.get("labels").has("gpu")).isFalse();
    assertThat(inc.get("status").get("state").asText()).isEqualTo("active");
    assertThat(inc.get("receivers").get(0).get("name").asText()).isEqualTo("pager");
    assertThat(inc.get("annotations").get("summary").asText())
        .isEqualTo("CoolantFlowLow on CDU cdu-3 loop loop-a: 32 GPUs on 4 nodes affected");
    // 32 GPUs x 47 min (and the seconds this test took) = about 25 GPU-hours
    assertThat(inc.get("annotations").path("jobs").asText())
        .isEqualTo("job llama-70b-run3, 32 GPUs, last checkpoint 47 min ago: about 25 GPU-hours at risk");
    JsonNode api = JSON.readTree(get("http://127.0.0.1:" + correlator.httpPort() + "/api/v1/incidents"));
    assertThat(api.get("count").asInt()).isEqualTo(1);
    assertThat(api.get("incidents").get(0).get("blast_radius").get("gpus").asInt()).isEqualTo(32);

    // 2. an unrelated per-GPU alert on the same rack is inhibited by the rack-level incident (example config)
    Anomaly ecc = Fleet.firing(t0.plusSeconds(10), Fleet.labels("alertname", "GpuEccUncorrectable", "severity", "critical",
        "node", Fleet.node(7, 2), "gpu", "5"));
    send(ecc);
    await("the ECC alert is in Alertmanager, suppressed by the rack incident", Duration.ofSeconds(30), () -> {
      JsonNode e = amAlert("GpuEccUncorrectable");
      return e != null && "suppressed".equals(e.get("status").get("state").asText())
          && e.get("status").get("inhibitedBy").size() == 1;
    });

    // 3. Alertmanager keeps no alerts across a restart: the correlator's re-send brings both back
    am.restart();
    await("the incident is back in Alertmanager after its restart", Duration.ofSeconds(30), () -> coolingIncident() != null
        && "32 GPUs, 4 nodes".equals(coolingIncident().get("annotations").path("blast_radius").asText())
        && amAlert("GpuEccUncorrectable") != null);
    assertThat(amAlerts()).hasSize(2);

    // 4. the fault clears while Alertmanager does not answer (process paused): the resolutions are retried
    signal("STOP");
    try {
      send(Fleet.resolved(cause, t0.plusSeconds(120)));
      send(Fleet.resolved(ecc, t0.plusSeconds(120)));
      hot.forEach(a -> sendQuietly(Fleet.resolved(a, t0.plusSeconds(121))));
      producer.flush();
      await("the correlator resolved every incident", Duration.ofSeconds(30), () -> firingIncidents() == 0);
      assertThat(owedDeliveries()).as("resolutions owed to Alertmanager while it is paused").isGreaterThan(0);
    } finally {
      signal("CONT");
    }
    await("Alertmanager got the resolutions: no active alert left", Duration.ofSeconds(30),
        () -> amAlerts().isEmpty() && owedDeliveries() == 0);

    // 5. and another restart brings nothing back: the resolutions were acknowledged, nothing is re-sent
    am.restart();
    await("Alertmanager answers after the second restart", Duration.ofSeconds(30), () -> LocalAlertmanager.isReady(am.url()));
    assertThat(amAlerts()).isEmpty();
    assertThat(owedDeliveries()).isZero();

    // 6. a resolution still owed when the correlator stops is delivered by the next correlator (deliveries store)
    Anomaly leak = Fleet.firing(Instant.now().minusSeconds(5), Fleet.labels("alertname", "CoolantLeak", "severity", "critical",
        "device", "cdu-4", "loop", "loop-b"));
    send(leak);
    await("the leak incident reaches Alertmanager", Duration.ofSeconds(30), () -> amAlert("CoolantLeak") != null);
    signal("STOP");
    try {
      send(Fleet.resolved(leak, Instant.now()));
      await("the correlator resolved the leak incident", Duration.ofSeconds(30), () -> firingIncidents() == 0);
      assertThat(owedDeliveries()).isEqualTo(1);
      correlator.close();
      correlator = null;
    } finally {
      signal("CONT");
    }
    correlator = CorrelatorApp.start(config, new RestSchemaRegistryClient(registry.url()), CorrelatorApp.sinkFor(config));
    await("the restarted correlator delivered the owed resolution", Duration.ofSeconds(60),
        () -> amAlerts().isEmpty() && owedDeliveries() == 0);

    // fleet.alerts.v1 holds exactly three incidents (cooling, ECC, leak), each firing then resolved
    Map<String, List<Alert>> byKey = readAlertsTopic();
    assertThat(byKey.keySet()).hasSize(3).contains(ecc.getFingerprint());
    for (List<Alert> versions : byKey.values()) {
      assertThat(versions.get(0).getStatus()).isEqualTo("firing");
      assertThat(versions.get(versions.size() - 1).getStatus()).isEqualTo("resolved");
    }
  }

  // ---- helpers

  private static ReadOnlyKeyValueStore<String, Object> globalStore(String name) {
    return correlator.streams().store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore()));
  }

  private void send(Anomaly a) {
    sendQuietly(a);
    producer.flush();
  }

  private void sendQuietly(Anomaly a) {
    producer.send(new ProducerRecord<>(config.anomaliesTopic(), a.getFingerprint(), a));
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("GET %s: %s", url, r.body()).isEqualTo(200);
    return r.body();
  }

  /** Alertmanager's alerts of our cluster (GET /api/v2/alerts lists active, suppressed and unprocessed ones). */
  private static List<JsonNode> amAlerts() {
    try {
      List<JsonNode> out = new ArrayList<>();
      for (JsonNode a : JSON.readTree(get(am.url() + "/api/v2/alerts"))) {
        if (Fleet.CLUSTER.equals(a.get("labels").path("cluster").asText())) {
          out.add(a);
        }
      }
      return out;
    } catch (Exception e) {
      return List.of(JSON.createObjectNode().put("unreachable", e.toString())); // never empty while AM is down
    }
  }

  private static JsonNode amAlert(String alertname) {
    return amAlerts().stream().filter(a -> alertname.equals(a.path("labels").path("alertname").asText())).findFirst().orElse(null);
  }

  private static JsonNode coolingIncident() {
    return amAlert("CoolantFlowLow");
  }

  private static int firingIncidents() {
    int n = 0;
    try (KeyValueIterator<String, Alert> it = correlator.incidents().all()) {
      while (it.hasNext()) {
        n += "firing".equals(it.next().value.getStatus()) ? 1 : 0;
      }
    } catch (RuntimeException e) {
      return -1;
    }
    return n;
  }

  private static int owedDeliveries() {
    try {
      ReadOnlyKeyValueStore<String, DeliveryState> s = correlator.streams().store(StoreQueryParameters.fromNameAndType(
          DeliveryProcessor.STORE, QueryableStoreTypes.<String, DeliveryState>keyValueStore()));
      int n = 0;
      try (KeyValueIterator<String, DeliveryState> it = s.all()) {
        while (it.hasNext()) {
          DeliveryState d = it.next().value;
          n += d.deliveredVersion() < d.version() ? 1 : 0;
        }
      }
      return n;
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** Pauses (STOP) or resumes (CONT) the Alertmanager process this test started. */
  private static void signal(String sig) throws Exception {
    Process p = new ProcessBuilder("kill", "-" + sig, String.valueOf(am.pid())).inheritIO().start();
    assertThat(p.waitFor()).isZero();
  }

  private static Map<String, List<Alert>> readAlertsTopic() {
    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, P + "reader");
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    Map<String, List<Alert>> byKey = new HashMap<>();
    try (KafkaConsumer<String, Alert> c = new KafkaConsumer<>(cp, new StringDeserializer(),
        new AvroDeserializer<>(new RestSchemaRegistryClient(registry.url()), Alert.class))) {
      c.subscribe(List.of(config.alertsTopic()));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      Set<String> resolved = new TreeSet<>();
      while (System.nanoTime() < deadline && (byKey.size() < 3 || resolved.size() < byKey.size())) {
        for (ConsumerRecord<String, Alert> r : c.poll(Duration.ofMillis(500))) {
          byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
          if ("resolved".equals(r.value().getStatus())) {
            resolved.add(r.key());
          }
        }
      }
    }
    return byKey;
  }

  /** Bounded poll: checks {@code condition} every 100 ms until it holds or {@code timeout} passes. */
  static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting until " + what + "; Alertmanager has "
            + amAlerts() + "; owed deliveries " + owedDeliveries());
      }
      Thread.sleep(100);
    }
  }
}
