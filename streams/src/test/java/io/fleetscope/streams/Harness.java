package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** The real correlator topology in a TopologyTestDriver, with an in-memory registry and a recording sink. */
final class Harness implements AutoCloseable {
  final CorrelatorConfig config;
  final InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
  final RecordingSink sink = new RecordingSink();
  final CorrelatorMetrics metrics = new CorrelatorMetrics();
  final TopologyTestDriver driver;
  final TestInputTopic<String, Anomaly> anomalies;
  final TestInputTopic<String, byte[]> rawAnomalies;
  final TestInputTopic<String, InventoryRecord> inventory;
  final TestInputTopic<String, JobAllocations> jobs;
  final TestInputTopic<String, CheckpointEvent> checkpoints;
  final TestOutputTopic<String, Alert> alerts;
  final TestOutputTopic<String, DeadLetter> dlq;
  private final Path stateDir;

  Harness(Map<String, String> overrides) throws Exception {
    this.config = CorrelatorConfig.of(overrides);
    this.stateDir = Files.createTempDirectory("correlator-test");
    Properties p = CorrelatorApp.streamsConfig(config);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    driver = new TopologyTestDriver(CorrelatorApp.buildTopology(config, registry, sink,
        new io.fleetscope.serde.RegistryWait(config.registryBackoff()), metrics), p, Fleet.T0);
    anomalies = driver.createInputTopic(config.anomaliesTopic(), new StringSerializer(), new AvroSerializer<>(registry));
    rawAnomalies = driver.createInputTopic(config.anomaliesTopic(), new StringSerializer(), new ByteArraySerializer());
    inventory = driver.createInputTopic(config.inventoryTopic(), new StringSerializer(), new AvroSerializer<>(registry));
    jobs = driver.createInputTopic(config.jobsTopic(), new StringSerializer(), new AvroSerializer<>(registry));
    checkpoints = driver.createInputTopic(config.ckptTopic(), new StringSerializer(), new AvroSerializer<>(registry));
    alerts = driver.createOutputTopic(config.alertsTopic(), new StringDeserializer(), new AvroDeserializer<>(registry, Alert.class));
    dlq = driver.createOutputTopic(config.dlqTopic(), new StringDeserializer(), new AvroDeserializer<>(registry, DeadLetter.class));
    for (InventoryRecord r : Fleet.inventory()) {
      inventory.pipeInput(r.getId(), r, Fleet.T0);
    }
  }

  void pipe(Anomaly a, Instant ts) {
    anomalies.pipeInput(a.getFingerprint(), a, ts);
  }

  void pipeAll(List<Anomaly> list, Instant ts) {
    list.forEach(a -> pipe(a, ts));
  }

  void advance(Duration d) {
    driver.advanceWallClockTime(d);
  }

  <V> List<KeyValue<String, V>> store(String name) {
    KeyValueStore<String, V> s = driver.getKeyValueStore(name);
    List<KeyValue<String, V>> out = new ArrayList<>();
    try (KeyValueIterator<String, V> it = s.all()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  List<Alert> firingIncidents() {
    List<Alert> out = new ArrayList<>();
    for (KeyValue<String, Alert> kv : this.<Alert>store(IncidentProcessor.INCIDENTS)) {
      if ("firing".equals(kv.value.getStatus())) {
        out.add(kv.value);
      }
    }
    return out;
  }

  @Override
  public void close() throws Exception {
    driver.close();
    try (var w = Files.walk(stateDir)) {
      w.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
