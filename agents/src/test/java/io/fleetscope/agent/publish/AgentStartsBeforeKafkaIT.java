package io.fleetscope.agent.publish;

import static io.fleetscope.agent.publish.SpoolBrokerRestartIT.await;
import static io.fleetscope.agent.publish.SpoolBrokerRestartIT.consumeSeqs;
import static io.fleetscope.agent.publish.SpoolBrokerRestartIT.pending;
import static io.fleetscope.agent.publish.SpoolBrokerRestartIT.publish;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.schemas.Topics;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent starts while nothing listens on the broker's and the registry's ports (a node that
 * boots before its Kafka is reachable). It keeps spooling; once the broker and then the registry
 * come up on those ports, every agent_seq arrives exactly once, in order, with no gap.
 */
class AgentStartsBeforeKafkaIT {

  @Test
  void spoolsWhileBrokerAndRegistryAreClosedThenDeliversEverySeqOnce(@TempDir Path tmp) throws Exception {
    LocalKafka.Config kafkaConfig = LocalKafka.Config.defaults(tmp.resolve("kafka"));
    int registryPort;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      registryPort = s.getLocalPort();
    }
    AgentConfig cfg = new AgentConfig();
    cfg.cluster = "it";
    cfg.node = "node-spool";
    cfg.kafka.bootstrap = "127.0.0.1:" + kafkaConfig.port();
    cfg.kafka.registryUrl = "http://127.0.0.1:" + registryPort;
    cfg.kafka.requestTimeout = Duration.ofSeconds(5);
    SelfMetrics metrics = new SelfMetrics();
    Publisher publisher = new Publisher(tmp.resolve("spool"), 64L << 20, 1L << 20, metrics);
    KafkaConnector connector = new KafkaConnector(cfg.kafka.bootstrap, () -> ProducerFactory.create(cfg), BootstrapHosts.DNS);
    KafkaSender sender = new KafkaSender(publisher.spool(), connector, ProducerFactory.serializer(cfg), metrics, 100, cfg.kafka.linger)
        .describing(cfg.kafka.bootstrap, cfg.kafka.registryUrl).start();
    LocalKafka kafka = null;
    SchemaRegistryServer registry = null;
    try {
      publish(publisher, 100);
      Thread.sleep(3_000);   // the sender has tried (and failed) meanwhile
      assertThat(pending(publisher)).as("nothing listens: all spooled").isEqualTo(100);
      assertThat(metrics.get(KafkaSender.UP, "")).as("not up").isNotEqualTo(1.0);

      kafka = LocalKafka.start(kafkaConfig);
      kafka.createTopic(Topics.GPU_XID, 1);
      publish(publisher, 50);
      Thread.sleep(2_000);
      assertThat(pending(publisher)).as("broker up, registry still closed: still spooled").isEqualTo(150);

      registry = SchemaRegistryServer.start(kafka.bootstrapServers(), registryPort);
      publish(publisher, 50);
      await("spool drained", Duration.ofSeconds(120), () -> pending(publisher) == 0);

      List<Long> seqs = consumeSeqs(kafka.bootstrapServers(), registry.url(), 200);
      assertThat(seqs).as("every agent_seq exactly once, in order, no gap")
          .containsExactlyElementsOf(LongStream.rangeClosed(1, 200).boxed().toList());
      assertThat(metrics.get(Publisher.DROPPED, "")).isZero();
      assertThat(metrics.get(KafkaSender.FAILED, SelfMetrics.labels("topic", Topics.GPU_XID))).as("no dead letter").isNaN();
    } finally {
      sender.close();
      publisher.close();
      if (registry != null) registry.close();
      if (kafka != null) kafka.close();
    }
  }
}
