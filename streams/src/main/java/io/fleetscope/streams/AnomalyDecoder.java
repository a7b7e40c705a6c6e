package io.fleetscope.streams;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.JsonLines;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes and validates raw anomaly records. A record that cannot be decoded or fails
 * {@link AnomalyValidator} becomes a {@link DeadLetter} with the reason and the original bytes.
 */
public final class AnomalyDecoder implements FixedKeyProcessor<String, byte[], AnomalyDecoder.Decoded> {
  private static final Logger log = LoggerFactory.getLogger(AnomalyDecoder.class);

  /** Either a valid anomaly or a dead letter. */
  public record Decoded(Anomaly anomaly, DeadLetter deadLetter) {
    public boolean ok() {
      return anomaly != null;
    }
  }

  private final Deserializer<Anomaly> deserializer;
  private FixedKeyProcessorContext<String, Decoded> context;
  private long rejected;

  public AnomalyDecoder(Deserializer<Anomaly> deserializer) {
    this.deserializer = deserializer;
  }

  @Override
  public void init(FixedKeyProcessorContext<String, Decoded> context) {
    this.context = context;
  }

  @Override
  public void process(FixedKeyRecord<String, byte[]> record) {
    String topic = context.recordMetadata().map(RecordMetadata::topic).orElse(null);
    Anomaly a;
    try {
      a = deserializer.deserialize(topic, record.value());
    } catch (RuntimeException e) {
      reject(record, "undecodable: " + e.getMessage(), e.getClass().getName(), null);
      return;
    }
    if (a == null) {
      reject(record, "null value (tombstone) on the anomalies topic", null, null);
      return;
    }
    Optional<String> problem = AnomalyValidator.problem(a);
    if (problem.isPresent()) {
      reject(record, "invalid anomaly: " + problem.get(), null, JsonLines.valueToJson(a));
      return;
    }
    context.forward(record.withValue(new Decoded(a, null)));
  }

  private void reject(FixedKeyRecord<String, byte[]> record, String reason, String errorClass, String json) {
    Optional<RecordMetadata> md = context.recordMetadata();
    rejected++;
    log.warn("anomaly rejected reason=\"{}\" topic={} partition={} offset={} key={} rejected_total={}", reason,
        md.map(RecordMetadata::topic).orElse(null), md.map(RecordMetadata::partition).orElse(null),
        md.map(RecordMetadata::offset).orElse(null), record.key(), rejected);
    DeadLetter dl = DeadLetter.newBuilder()
        .setTs(context.currentSystemTimeMs())
        .setStage("streams")
        .setReason(reason)
        .setSourceTopic(md.map(RecordMetadata::topic).orElse(null))
        .setPartition(md.map(RecordMetadata::partition).orElse(null))
        .setOffset(md.map(RecordMetadata::offset).orElse(null))
        .setKey(record.key())
        .setPayload(record.value() == null ? null : ByteBuffer.wrap(record.value()))
        .setPayloadJson(json)
        .setErrorClass(errorClass)
        .build();
    context.forward(record.withValue(new Decoded(null, dl)));
  }
}
