package io.fleetscope.agent.publish;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.serde.AvroSerializer;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The agent's producer: idempotent, acks=all, lz4/zstd, batching, unbounded delivery timeout (the spool bounds memory). */
public final class ProducerFactory {
  private ProducerFactory() {}

  public static Properties properties(AgentConfig cfg) {
    AgentConfig.KafkaConfig k = cfg.kafka;
    Properties p = new Properties();
    // No JMX reporter and no client-metrics push: the agent serves its own /metrics, and the
    // reporters' classes and objects cost megabytes of a small process (kafka.properties can set them).
    p.put(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG, "");
    p.put(CommonClientConfigs.ENABLE_METRICS_PUSH_CONFIG, "false");
    p.putAll(k.properties);
    cfg.kafkaClient().applyTo(p);
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, k.bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, k.clientId != null ? k.clientId : "fleetscope-agent-" + cfg.node);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
    p.put(ProducerConfig.RETRIES_CONFIG, Integer.toString(Integer.MAX_VALUE));
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(Integer.MAX_VALUE));
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(k.requestTimeout.toMillis()));
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, k.compression);
    p.put(ProducerConfig.LINGER_MS_CONFIG, Long.toString(k.linger.toMillis()));
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, Long.toString(k.batchSize.bytes()));
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(k.bufferMemory.bytes()));
    p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "5000");
    return p;
  }

  /** Sends the sender's framed bytes (wire-format header + the spooled Avro body) as they are. */
  public static Producer<String, byte[]> create(AgentConfig cfg) {
    return new KafkaProducer<>(properties(cfg), new StringSerializer(), new ByteArraySerializer());
  }

  /** Registry ids of the agent's topic schemas (registered on first use) and dead-letter encoding. */
  public static AvroSerializer<SpecificRecord> serializer(AgentConfig cfg) {
    return new AvroSerializer<>(cfg.kafkaClient().registryClient(cfg.kafka.registryUrl));
  }
}
