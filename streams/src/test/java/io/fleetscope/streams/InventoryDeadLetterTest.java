package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.serde.AvroDeserializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/**
 * An inventory record the correlator cannot decode (its schema id is one the registry answers "not
 * found" for) goes to the DLQ with the reason and its bytes, and the inventory goes on with the next
 * record; it was logged and skipped by LogAndContinueExceptionHandler before. The handler is driven
 * here as Kafka Streams' global thread drives it, with the exception the real deserializer throws:
 * TopologyTestDriver gives its global task a LogAndContinueExceptionHandler of its own, whatever the
 * configuration says.
 */
class InventoryDeadLetterTest {

  @Test
  void anInventoryRecordWithAnUnknownSchemaIdIsDeadLetteredWithTheReason() throws Exception {
    CorrelatorConfig config = CorrelatorConfig.of(Map.of());
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    MockProducer<String, byte[]> dlqProducer = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    Properties p = CorrelatorApp.streamsConfig(config);
    assertThat(p.get(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG)).isEqualTo(DeadLetterOnDeserializationError.class);
    p.put(DeadLetterOnProcessingError.PRODUCER, new DeadLetterProducer(dlqProducer, registry, config.dlqTopic(), 1 << 20));
    DeserializationExceptionHandler handler = new StreamsConfig(p).deserializationExceptionHandler();

    byte[] unknownId = ByteBuffer.allocate(9).put((byte) 0).putInt(4711).putInt(0).array();
    ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(config.inventoryTopic(), 0, 42L,
        "node-9".getBytes(StandardCharsets.UTF_8), unknownId);
    Exception decodeError = catchException(() -> new AvroDeserializer<>(registry, InventoryRecord.class)
        .deserialize(config.inventoryTopic(), unknownId));
    assertThat(decodeError).isNotNull();

    assertThat(handler.handle(context(record), record, decodeError))
        .isEqualTo(DeserializationExceptionHandler.DeserializationHandlerResponse.CONTINUE);
    List<ProducerRecord<String, byte[]>> sent = dlqProducer.history();
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).topic()).isEqualTo(config.dlqTopic());
    assertThat(sent.get(0).key()).isEqualTo("node-9");
    DeadLetter dl = new AvroDeserializer<>(registry, DeadLetter.class).deserialize(config.dlqTopic(), sent.get(0).value());
    assertThat(dl.getStage()).isEqualTo("streams");
    assertThat(dl.getSourceTopic()).isEqualTo(config.inventoryTopic());
    assertThat(dl.getOffset()).isEqualTo(42L);
    assertThat(dl.getReason()).startsWith("undecodable: ").contains("unknown schema id 4711").contains("404");
    assertThat(dl.getPayload().array()).isEqualTo(unknownId);

    // the dead letter cannot be written: the thread fails, so the record is read again, not lost
    MockProducer<String, byte[]> broken = new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
    broken.close();
    p.put(DeadLetterOnProcessingError.PRODUCER, new DeadLetterProducer(broken, registry, config.dlqTopic(), 1 << 20));
    DeserializationExceptionHandler failing = new StreamsConfig(p).deserializationExceptionHandler();
    assertThat(failing.handle(context(record), record, decodeError))
        .isEqualTo(DeserializationExceptionHandler.DeserializationHandlerResponse.FAIL);
  }

  private static Exception catchException(Runnable r) {
    try {
      r.run();
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  private static ErrorHandlerContext context(ConsumerRecord<byte[], byte[]> r) {
    return new ErrorHandlerContext() {
      @Override public String topic() { return r.topic(); }
      @Override public int partition() { return r.partition(); }
      @Override public long offset() { return r.offset(); }
      @Override public Headers headers() { return r.headers(); }
      @Override public String processorNodeId() { return "inventory-source"; }
      @Override public TaskId taskId() { return new TaskId(-1, -1); }
      @Override public long timestamp() { return r.timestamp(); }
      @Override public byte[] sourceRawKey() { return r.key(); }
      @Override public byte[] sourceRawValue() { return r.value(); }
    };
  }
}
