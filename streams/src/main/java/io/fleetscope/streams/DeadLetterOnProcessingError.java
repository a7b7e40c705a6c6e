package io.fleetscope.streams;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.serde.RegistryWaitAbortedException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record that makes a processor throw (a bug, not bad input: that is dead-lettered by the decoder)
 * goes to the DLQ topic, in the same DeadLetter shape as every other stage's (stage {@code streams},
 * reason {@code processor <name> failed: <exception>}, the source record's bytes and, where the
 * failing record is Avro, its JSON), is counted and logged, and processing continues with the next
 * record. If the dead letter cannot be written the thread fails instead (and is replaced), so the
 * record is processed again rather than lost. A wait for the registry that ended because the app is
 * closing is not the record's fault: it fails the thread too, never dead-letters.
 *
 * <p>Kafka Streams builds this handler from its configuration: {@link #PRODUCER} carries the
 * {@link DeadLetterProducer} that {@link CorrelatorApp#start} owns.
 */
public final class DeadLetterOnProcessingError implements ProcessingExceptionHandler {
  /** Streams configuration key of the {@link DeadLetterProducer} instance. */
  public static final String PRODUCER = "fleetscope.dead.letter.producer";
  private static final Logger log = LoggerFactory.getLogger(DeadLetterOnProcessingError.class);

  private DeadLetterProducer producer;

  @Override
  public void configure(Map<String, ?> configs) {
    Object p = configs.get(PRODUCER);
    if (p != null && !(p instanceof DeadLetterProducer)) {
      throw new ConfigException(PRODUCER, p, "is not a " + DeadLetterProducer.class.getName());
    }
    producer = (DeadLetterProducer) p;
  }

  @Override
  public ProcessingHandlerResponse handle(ErrorHandlerContext ctx, Record<?, ?> record, Exception e) {
    if (e instanceof RegistryWaitAbortedException) {
      log.info("processing stopped while waiting for the schema registry processor={} topic={} partition={} offset={}",
          ctx.processorNodeId(), ctx.topic(), ctx.partition(), ctx.offset());
      return ProcessingHandlerResponse.FAIL;
    }
    if (producer == null) {
      log.error("processor failed and no dead-letter producer is configured processor={} topic={} partition={} "
          + "offset={} error=\"{}\"", ctx.processorNodeId(), ctx.topic(), ctx.partition(), ctx.offset(), e.toString());
      return ProcessingHandlerResponse.FAIL;
    }
    DeadLetter dl = deadLetter(ctx, record, e, System.currentTimeMillis());
    try {
      producer.send(dl.getKey(), dl);
    } catch (IllegalStateException sendFailed) {
      log.error("processor failed and its dead letter was not written; failing the thread so the record is processed "
          + "again processor={} topic={} partition={} offset={} error=\"{}\"", ctx.processorNodeId(), ctx.topic(),
          ctx.partition(), ctx.offset(), sendFailed.getMessage());
      return ProcessingHandlerResponse.FAIL;
    }
    log.warn("processor failed, record sent to dlq processor={} topic={} partition={} offset={} key={} reason=\"{}\" "
        + "processing_failures_total={}", ctx.processorNodeId(), ctx.topic(), ctx.partition(), ctx.offset(), dl.getKey(),
        dl.getReason(), producer.sent());
    return ProcessingHandlerResponse.CONTINUE;
  }

  /** The DeadLetter of {@code record}, which made processor {@code ctx.processorNodeId()} throw {@code e}. */
  static DeadLetter deadLetter(ErrorHandlerContext ctx, Record<?, ?> record, Exception e, long now) {
    String json = null;
    if (record.value() instanceof SpecificRecord r) {
      try {
        json = JsonLines.valueToJson(r);
      } catch (RuntimeException ignored) {
        // the raw bytes are kept anyway
      }
    }
    String key = record.key() != null ? record.key().toString()
        : ctx.sourceRawKey() == null ? null : new String(ctx.sourceRawKey(), StandardCharsets.UTF_8);
    byte[] raw = ctx.sourceRawValue();
    return DeadLetter.newBuilder()
        .setTs(now)
        .setStage("streams")
        .setReason("processor " + ctx.processorNodeId() + " failed: " + e)
        .setSourceTopic(ctx.topic())
        .setPartition(ctx.partition() < 0 ? null : ctx.partition())
        .setOffset(ctx.offset() < 0 ? null : ctx.offset())
        .setKey(key)
        .setPayload(raw == null ? null : ByteBuffer.wrap(raw))
        .setPayloadJson(json)
        .setErrorClass(e.getClass().getName())
        .build();
  }
}
