package io.fleetscope.sink.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.sink.SinkConfig;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter producer a worker waits for gives up within sink.dlq_timeout_ms: the real Kafka
 * client with the sink's settings, against a port where no broker listens.
 */
class DlqProducerBoundTest {
  @Test
  void aSendToABrokerThatIsNotThereFailsWithinTheDlqTimeout() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    SinkConfig c = SinkConfig.of(Map.of(SinkConfig.KAFKA.name(), "127.0.0.1:" + closed, SinkConfig.DLQ_TIMEOUT.name(), "1500",
        SinkConfig.KAFKA_CONFIG.name(), "", SinkConfig.METRICS_PORT.name(), "-1"));
    long t0 = System.nanoTime();
    try (KafkaProducer<String, String> p = new KafkaProducer<>(new SinkService(c).producerProps(), new StringSerializer(), new StringSerializer())) {
      assertThatThrownBy(() -> p.send(new ProducerRecord<>("fleet.dlq.v1", "k", "v")).get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(ms).as("bounded by sink.dlq_timeout_ms (1.5 s), not the client's 60 s default").isBetween(1_000L, 10_000L);
  }
}
