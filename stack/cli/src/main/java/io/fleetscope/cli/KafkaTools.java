package io.fleetscope.cli;

import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.serde.SchemaRegistryClient;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Producers and consumers for the command-line tools, with FleetScope's serdes. */
final class KafkaTools {
  private KafkaTools() {}

  static KafkaProducer<String, SpecificRecord> producer(Endpoints e) {
    KafkaClientConfig client = e.kafkaClient();
    Properties p = client.applyTo(new Properties());
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, e.kafka());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
    SchemaRegistryClient registry = client.registryClient(e.registry());
    return new KafkaProducer<>(p, new StringSerializer(), new AvroSerializer<>(registry));
  }

  static <T extends SpecificRecord> KafkaConsumer<String, T> consumer(Endpoints e, Class<T> valueClass) {
    KafkaClientConfig client = e.kafkaClient();
    Properties p = client.applyTo(new Properties());
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, e.kafka());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    SchemaRegistryClient registry = client.registryClient(e.registry());
    return new KafkaConsumer<>(p, new StringDeserializer(), new AvroDeserializer<>(registry, valueClass));
  }
}
