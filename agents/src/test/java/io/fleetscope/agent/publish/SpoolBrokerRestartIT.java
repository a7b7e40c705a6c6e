package io.fleetscope.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real broker is stopped mid-run and restarted on the same port and data directory: every
 * agent_seq must arrive exactly once and in order. Uses its own broker (not the shared one) because
 * it stops it.
 */
class SpoolBrokerRestartIT {

  @Test
  void everyAgentSeqArrivesExactlyOnceAcrossABrokerRestart(@TempDir Path tmp) throws Exception {
    LocalKafka kafka = LocalKafka.start(LocalKafka.Config.defaults(tmp.resolve("kafka")));
    SchemaRegistryServer registry = SchemaRegistryServer.start(kafka.bootstrapServers(), 0);
    LocalKafka restarted = null;
    kafka.createTopic(Topics.GPU_XID, 1);

    AgentConfig cfg = new AgentConfig();
    cfg.cluster = "it";
    cfg.node = "node-spool";
    cfg.kafka.bootstrap = kafka.bootstrapServers();
    cfg.kafka.registryUrl = registry.url();
    cfg.kafka.requestTimeout = Duration.ofSeconds(5);
    SelfMetrics metrics = new SelfMetrics();
    Path spoolDir = tmp.resolve("spool");
    Publisher publisher = new Publisher(spoolDir, 64L << 20, 1L << 20, metrics);
    Producer<String, byte[]> producer = ProducerFactory.create(cfg);
    KafkaSender sender = new KafkaSender(publisher.spool(), producer, ProducerFactory.serializer(cfg), metrics, 100, cfg.kafka.linger).start();
    try {
      publish(publisher, 50);
      await("first 50 sent", Duration.ofSeconds(60), () -> pending(publisher) == 0);

      kafka.stop();
      publish(publisher, 200);   // broker down: these can only go to the spool
      assertThat(pending(publisher)).as("spooled while the broker is down").isEqualTo(200);
      assertThat(Files.list(spoolDir).anyMatch(p -> p.toString().endsWith(".spool"))).isTrue();

      restarted = LocalKafka.start(kafka.config());   // same port, same data directory
      publish(publisher, 50);
      await("spool drained after restart", Duration.ofSeconds(120), () -> pending(publisher) == 0);
      assertThat(metrics.get(KafkaSender.SENT, "")).isEqualTo(300);
      assertThat(metrics.get(Publisher.DROPPED, "")).isZero();

      List<Long> seqs = consumeSeqs(restarted.bootstrapServers(), registry.url(), 300);
      assertThat(seqs).as("every agent_seq exactly once, in order").containsExactlyElementsOf(
          java.util.stream.LongStream.rangeClosed(1, 300).boxed().toList());
    } finally {
      sender.close();
      producer.close(Duration.ofSeconds(5));
      publisher.close();
      registry.close();
      if (restarted != null) restarted.close();
      kafka.close();
    }
  }

  static void publish(Publisher p, int n) throws Exception {
    for (int i = 0; i < n; i += 10) {
      List<AgentRecord> round = new ArrayList<>();
      for (int j = 0; j < 10 && i + j < n; j++) {
        round.add(new AgentRecord(Topics.GPU_XID, "node-spool", GpuXid.newBuilder().setTs(1767225600000L + i + j)
            .setCluster("it").setNode("node-spool").setAgentSeq(0L).setXid(79).setMessage("GPU has fallen off the bus.").build()));
      }
      p.accept("test", round);
    }
  }

  static long pending(Publisher p) {
    try {
      return p.spool().pending();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits for a condition the system under test reaches by itself (not time-driven logic). */
  static void await(String what, Duration max, BooleanSupplier done) throws InterruptedException {
    long end = System.nanoTime() + max.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > end) throw new AssertionError("timed out waiting: " + what);
      Thread.sleep(100);
    }
  }

  static List<Long> consumeSeqs(String bootstrap, String registryUrl, int expected) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "spool-it");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<Long> seqs = new ArrayList<>();
    Map<Long, Integer> seen = new HashMap<>();
    try (KafkaConsumer<String, GpuXid> c = new KafkaConsumer<>(p, new StringDeserializer(),
        new AvroDeserializer<>(new RestSchemaRegistryClient(registryUrl), GpuXid.class))) {
      c.subscribe(List.of(Topics.GPU_XID));
      long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (seqs.size() < expected && System.nanoTime() < end) {
        for (ConsumerRecord<String, GpuXid> r : c.poll(Duration.ofMillis(500))) {
          seqs.add(r.value().getAgentSeq());
          seen.merge(r.value().getAgentSeq(), 1, Integer::sum);
        }
      }
      // drain a little longer so duplicates after the 300th would show
      for (int i = 0; i < 4; i++) for (ConsumerRecord<String, GpuXid> r : c.poll(Duration.ofMillis(500))) seqs.add(r.value().getAgentSeq());
    }
    return seqs;
  }
}
