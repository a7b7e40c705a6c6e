package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.loadgen.output.KafkaSink;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** loadgen -> the real broker and registry through the project's serde, read back with the project's deserializer. */
class LoadgenKafkaIT {

  @Test
  void everyGeneratedRecordArrivesDecodableKeyedByNodeWithEventTime() {
    LocalKafka kafka = TestServices.kafka();
    String registryUrl = TestServices.registry().url();
    Set<String> topics = Set.of(Topics.GPU, Topics.IB, Topics.PDU, Topics.COOLANT, Topics.INVENTORY, Topics.JOBS,
        Topics.CKPT, Topics.GPU_XID);
    for (String t : topics) {
      kafka.createTopic(t, 3);
    }
    SimConfig cfg = SimConfig.of(4, ScenarioLoader.load("xid-storm"), 77).withDuration(Duration.ofMinutes(4));
    // other test classes share the broker and topics: this run is told apart by its cluster name
    cfg = cfg.withSite(cfg.site().withCluster("loadgen-kafka-it"));
    FleetSimulator sim = new FleetSimulator(cfg);
    List<SimRecord> expected = sim.stream().collect(Collectors.toList());
    try (KafkaSink sink = KafkaSink.connect(kafka.bootstrapServers(), registryUrl)) {
      long n = io.fleetscope.loadgen.LoadgenMain.emit(sim, sink, false);
      sink.flush();
      assertThat(n).isEqualTo(expected.size());
      assertThat(sink.failed()).isZero();
    }
    RestSchemaRegistryClient registry = new RestSchemaRegistryClient(registryUrl);
    Map<String, AvroDeserializer<? extends SpecificRecord>> deser = new HashMap<>();
    for (String t : topics) {
      deser.put(t, new AvroDeserializer<>(registry, Topics.require(t).valueClass()));
    }
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "loadgen-it");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<String> got = new ArrayList<>();
    Map<String, Integer> wrongKey = new HashMap<>();
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(topics);
      long deadline = System.currentTimeMillis() + 60_000;
      while (got.size() < expected.size() && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(500))) {
          SpecificRecord v = deser.get(r.topic()).deserialize(r.topic(), r.value());
          if (!"loadgen-kafka-it".equals(v.get(v.getSchema().getField("cluster").pos()).toString())) {
            continue;
          }
          got.add(JsonLines.toJson(new JsonLines.Line(r.topic(), r.key(), v)));
          Object ts = v.getSchema().getField("ts") == null ? null : v.get(v.getSchema().getField("ts").pos());
          if (ts != null && !ts.equals(r.timestamp())) {
            wrongKey.merge("timestamp", 1, Integer::sum);
          }
          Object node = v.getSchema().getField("node") == null ? null : v.get(v.getSchema().getField("node").pos());
          if (node != null && !node.toString().equals(r.key())) {
            wrongKey.merge(r.topic(), 1, Integer::sum);
          }
        }
      }
    }
    List<String> want = expected.stream().map(r -> JsonLines.toJson(r.toLine())).collect(Collectors.toList());
    assertThat(got).hasSameSizeAs(want);
    assertThat(got).containsExactlyInAnyOrderElementsOf(want);
    assertThat(wrongKey).isEmpty();
    assertThat(want.stream().filter(l -> l.contains("\"topic\":\"fleet.gpu.xid.v1\"")).count()).isGreaterThan(10);
  }
}
