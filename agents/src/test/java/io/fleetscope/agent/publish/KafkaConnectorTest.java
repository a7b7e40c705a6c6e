package io.fleetscope.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroSerializer;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose DNS is not ready at boot: the broker names do not resolve for a while. The agent must
 * not die; it spools, retries, and once the names resolve sends everything, in order, once.
 */
class KafkaConnectorTest {

  @Test
  void unresolvedEntriesAreNamedInListOrder() {
    BootstrapHosts.Resolver onlyKafka1 = host -> {
      if (!host.equals("kafka-1.kafka")) throw new UnknownHostException(host);
    };
    assertThat(BootstrapHosts.unresolved("kafka-0.kafka:9092, kafka-1.kafka:9092,[fd00::1]:9093", onlyKafka1))
        .containsExactly("kafka-0.kafka:9092", "[fd00::1]:9093");
    assertThat(BootstrapHosts.host("[fd00::1]:9093")).isEqualTo("fd00::1");
  }

  @Test
  void theRealProducerFactoryFailsOnAnInvalidNameAndTheConnectorSaysSoInsteadOfThrowing() {
    AgentConfig cfg = new AgentConfig();
    cfg.node = "n1";
    cfg.kafka.bootstrap = "kafka-0.invalid:9092";
    AtomicInteger built = new AtomicInteger();
    KafkaConnector c = new KafkaConnector(cfg.kafka.bootstrap, () -> {
      built.incrementAndGet();
      return ProducerFactory.create(cfg);
    }, BootstrapHosts.DNS);
    assertThat(c.tryConnect()).isNull();
    assertThat(built).as("no producer is even tried while no bootstrap name resolves").hasValue(0);
  }

  @Test
  void spoolsWhileNamesDoNotResolveThenDeliversEverySeqOnce(@TempDir Path tmp) throws Exception {
    SelfMetrics m = new SelfMetrics();
    Publisher p = new Publisher(tmp, 64L << 20, 1L << 20, m);
    AtomicInteger lookups = new AtomicInteger();
    BootstrapHosts.Resolver dnsReadyAfterThreeTries = host -> {
      if (lookups.incrementAndGet() <= 3) throw new UnknownHostException(host);
    };
    KafkaSenderTest.FailingProducer producer = new KafkaSenderTest.FailingProducer(-1, -1);
    KafkaConnector connector = new KafkaConnector("kafka-0.kafka:9092", () -> producer, dnsReadyAfterThreeTries);
    KafkaSender sender = new KafkaSender(p.spool(), connector, new AvroSerializer<>(new KafkaSenderTest.MemoryRegistry()), m, 100,
        Duration.ZERO).describing("kafka-0.kafka:9092", "http://registry:8081").start();
    try {
      for (int round = 0; round < 4; round++) p.accept("xid", KafkaSenderTest.xids(10));
      assertThat(p.spool().pending()).as("spooled while the names do not resolve").isEqualTo(40);
      assertThat(producer.history()).isEmpty();
      long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (p.spool().pending() > 0 && System.nanoTime() < end) Thread.sleep(50);
      for (int round = 4; round < 6; round++) p.accept("xid", KafkaSenderTest.xids(10));
      while (p.spool().pending() > 0 && System.nanoTime() < end) Thread.sleep(50);
      assertThat(lookups.get()).as("retried until the names resolved").isGreaterThan(3);
      List<Long> seqs = producer.values(Topics.GPU_XID, GpuXid.class).stream().map(GpuXid::getAgentSeq).toList();
      assertThat(seqs).containsExactlyElementsOf(LongStream.rangeClosed(1, 60).boxed().toList());
      assertThat(m.get(KafkaSender.UP, "")).isEqualTo(1);
    } finally {
      sender.close();
      p.close();
    }
  }
}
