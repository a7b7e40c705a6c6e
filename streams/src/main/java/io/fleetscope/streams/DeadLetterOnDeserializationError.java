package io.fleetscope.streams;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.serde.RegistryWaitAbortedException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record of a source the topology does not decode itself (the inventory of the GlobalKTable)
 * that cannot be decoded, e.g. its schema id is one the registry answers "not found" for, goes to
 * the DLQ topic with the reason ({@code undecodable: <exception>}, stage {@code streams}, the
 * record's bytes), is logged and processing continues; it was logged and skipped before. A wait for
 * the registry that ended because the app is closing is not the record's fault: it fails the thread,
 * and so does a dead letter that cannot be written, so the record is read again rather than lost.
 * Shares the {@link DeadLetterProducer} of {@link DeadLetterOnProcessingError#PRODUCER}.
 */
public final class DeadLetterOnDeserializationError implements DeserializationExceptionHandler {
  private static final Logger log = LoggerFactory.getLogger(DeadLetterOnDeserializationError.class);
  /** The reason's prefix, as the analytics' decoder writes it. */
  static final String UNDECODABLE = "undecodable: ";

  private DeadLetterProducer producer;

  @Override
  public void configure(Map<String, ?> configs) {
    Object p = configs.get(DeadLetterOnProcessingError.PRODUCER);
    if (p != null && !(p instanceof DeadLetterProducer)) {
      throw new ConfigException(DeadLetterOnProcessingError.PRODUCER, p, "is not a " + DeadLetterProducer.class.getName());
    }
    producer = (DeadLetterProducer) p;
  }

  @Override
  public DeserializationHandlerResponse handle(ErrorHandlerContext ctx, ConsumerRecord<byte[], byte[]> record,
      Exception e) {
    if (e instanceof RegistryWaitAbortedException) {
      log.info("decoding stopped while waiting for the schema registry topic={} partition={} offset={}", record.topic(),
          record.partition(), record.offset());
      return DeserializationHandlerResponse.FAIL;
    }
    DeadLetter dl = deadLetter(record, e, System.currentTimeMillis());
    if (producer == null) {
      log.error("record cannot be decoded and no dead-letter producer is configured topic={} partition={} offset={} "
          + "reason=\"{}\"", record.topic(), record.partition(), record.offset(), dl.getReason());
      return DeserializationHandlerResponse.FAIL;
    }
    try {
      producer.send(dl.getKey(), dl);
    } catch (IllegalStateException sendFailed) {
      log.error("record cannot be decoded and its dead letter was not written; failing the thread so it is read again "
          + "topic={} partition={} offset={} error=\"{}\"", record.topic(), record.partition(), record.offset(),
          sendFailed.getMessage());
      return DeserializationHandlerResponse.FAIL;
    }
    log.warn("record cannot be decoded, sent to dlq topic={} partition={} offset={} key={} reason=\"{}\"", record.topic(),
        record.partition(), record.offset(), dl.getKey(), dl.getReason());
    return DeserializationHandlerResponse.CONTINUE;
  }

  /** The DeadLetter of {@code record}, which its deserializer could not decode ({@code e}). */
  static DeadLetter deadLetter(ConsumerRecord<byte[], byte[]> record, Exception e, long now) {
    String why = String.valueOf(e.getMessage());
    return DeadLetter.newBuilder()
        .setTs(now)
        .setStage("streams")
        .setReason(UNDECODABLE + why)
        .setSourceTopic(record.topic())
        .setPartition(record.partition() < 0 ? null : record.partition())
        .setOffset(record.offset() < 0 ? null : record.offset())
        .setKey(record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8))
        .setPayload(record.value() == null ? null : ByteBuffer.wrap(record.value()))
        .setErrorClass(e.getClass().getName())
        .build();
  }
}
