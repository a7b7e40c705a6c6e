package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.loadgen.bench.LagProbe;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.TestServices;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Consumer lag against the real broker: end offsets minus committed offsets, per group. */
class LagProbeIT {

  @Test
  void lagIsEndMinusCommittedPerGroupAndProbeGroupsAreIgnored() throws Exception {
    LocalKafka kafka = TestServices.kafka();
    String topic = "lagprobe-it";
    kafka.createTopic(topic, 2);
    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<String, String> p = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < 10; i++) {
        p.send(new ProducerRecord<>(topic, i % 2, "k", "v" + i)).get();
      }
    }
    Properties ap = new Properties();
    ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (Admin admin = Admin.create(ap)) {
      admin.alterConsumerGroupOffsets("lag-it-sink", Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(4),
          new TopicPartition(topic, 1), new OffsetAndMetadata(5))).all().get();
      admin.alterConsumerGroupOffsets("lag-it-caught-up", Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(5),
          new TopicPartition(topic, 1), new OffsetAndMetadata(5))).all().get();
      admin.alterConsumerGroupOffsets("probe-lag-it", Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)))
          .all().get();
      Map<String, Long> lag = new LagProbe(admin, "probe-").lagByGroup();
      assertThat(lag).containsEntry("lag-it-sink", 1L).containsEntry("lag-it-caught-up", 0L).doesNotContainKey("probe-lag-it");
    }
  }
}
