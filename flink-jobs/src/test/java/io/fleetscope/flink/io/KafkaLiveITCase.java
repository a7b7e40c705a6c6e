package io.fleetscope.flink.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.flink.ecc.EccScenario;
import io.fleetscope.flink.ecc.EccTrendAnalytic;
import io.fleetscope.flink.rail.RailBandwidthAnalytic;
import io.fleetscope.flink.rail.RailScenario;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The production path against a real broker and registry: records published with the project's
 * AvroSerializer, read by KafkaSource through AvroDeserializer (2 partitions, parallelism 2,
 * streaming), anomalies written by KafkaSink to fleet.anomalies.v1; they equal a bounded batch run
 * of the same input. The run reads and writes a topic set of its own under a prefix (as
 * {@code replay --prefix P} writes and {@code RunMain --topic-prefix P} reads it), so other tests'
 * records on the shared broker are not in it.
 */
class KafkaLiveITCase {
  @Test
  void liveRunOverKafkaWritesTheSameAnomaliesAsBatch() throws Exception {
    LocalKafka kafka = TestServices.kafka();
    String registry = TestServices.registry().url();
    String prefix = "kafka-live-itcase-" + System.nanoTime() + ".";
    for (String t : FleetAnalytics.RAW_TOPICS) {
      kafka.createTopic(prefix + t, 2);
    }
    for (String t : List.of(Topics.RAIL_BW, Topics.ECC_TREND, Topics.ANOMALIES, Topics.DLQ, Topics.THERMAL_RISK, Topics.CKPT_SLO)) {
      kafka.createTopic(prefix + t, 2);
    }
    List<SpecificRecord> in = new ArrayList<>(RailScenario.records(true));
    in.addAll(EccScenario.records(true));
    AvroSerializer<SpecificRecord> ser = new AvroSerializer<>(new RestSchemaRegistryClient(registry));
    try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new StringSerializer(), new ByteArraySerializer())) {
      for (SpecificRecord r : in) {
        String topic = prefix + OutputRouting.topicOf(r);
        p.send(new ProducerRecord<>(topic, OutputRouting.keyOf(r), ser.serialize(topic, r)));
      }
      p.send(new ProducerRecord<>(prefix + Topics.GPU, "n1", new byte[] {0, 0, 0, 0, 1, 2, 3})); // garbage: to the DLQ
      p.flush();
    }
    List<Analytic> analytics = List.of(new RailBandwidthAnalytic(), new EccTrendAnalytic());
    KafkaEndpoints ep = new KafkaEndpoints(kafka.bootstrapServers(), registry, "kafka-live-itcase", true,
        io.fleetscope.schemas.kafka.KafkaClientConfig.none(), prefix);
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    new FleetAnalytics(new KafkaTelemetrySource(ep, Runs.CLOCK, true), new KafkaOutputSink(ep), EccScenario.config(), analytics, Runs.CLOCK)
        .build(env);
    env.execute("kafka-live-itcase");

    List<Anomaly> live = new ArrayList<>();
    List<String> dlqReasons = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "kafka-live-itcase-check",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(List.of(prefix + Topics.ANOMALIES, prefix + Topics.DLQ));
      AvroDeserializer<Anomaly> an = new AvroDeserializer<>(new RestSchemaRegistryClient(registry), Anomaly.class);
      AvroDeserializer<io.fleetscope.avro.DeadLetter> dl = new AvroDeserializer<>(new RestSchemaRegistryClient(registry),
          io.fleetscope.avro.DeadLetter.class);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline && (live.size() < 19 || dlqReasons.isEmpty())) {
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(500))) {
          if (r.topic().equals(prefix + Topics.ANOMALIES)) {
            Anomaly a = an.deserialize(r.topic(), r.value());
            assertThat(r.key()).isEqualTo(a.getFingerprint());
            live.add(a);
          } else {
            dlqReasons.add(dl.deserialize(r.topic(), r.value()).getReason());
          }
        }
      }
    }
    List<String> batch = Runs.anomalies(Runs.run(in, EccScenario.config(), analytics, RuntimeExecutionMode.BATCH))
        .stream().map(Runs::comparable).sorted().toList();
    assertThat(live.stream().map(Runs::comparable).sorted().toList()).isEqualTo(batch).hasSize(19);
    assertThat(dlqReasons).anyMatch(r -> r.startsWith("undecodable"));
  }
}
