package io.fleetscope.streams;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.serde.RegistryWaitAbortedException;
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
 * {@link AnomalyValidator} becomes a {@link DeadLetter} with the reason and the original bytes, cut
 * to fit the producer's max.request.size when it is larger ({@link DeadLetterFit}). A registry that
 * cannot answer is waited out by the deserializer (built with a RegistryWait), not dead-lettered;
 * a schema id the registry does not know is.
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
  private long truncated;

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
    } catch (RegistryWaitAbortedException e) {
      throw e; // closing while the registry is down: the record is read again after the restart
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
    DeadLetterFit.Fitted fitted = DeadLetterFit.fit(dl, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    if (fitted.truncated()) {
      truncated++;
      log.warn("dead letter truncated to fit {} truncated_total={}", fitted.describe(DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES),
          truncated);
    }
    context.forward(record.withValue(new Decoded(null, fitted.deadLetter())));
  }
}
