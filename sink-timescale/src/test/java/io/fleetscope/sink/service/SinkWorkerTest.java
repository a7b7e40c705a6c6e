package io.fleetscope.sink.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.write.CopyFormat;
import io.fleetscope.serde.SchemaRegistryClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A worker meeting an unexpected error goes on, with the batch's offsets uncommitted: Kafka's own
 * MockConsumer and MockProducer, no database (the errors come before the first write). The database
 * and broker paths (lock timeout, unpublishable dead letters) are in DatabaseRestartIT.
 */
class SinkWorkerTest {
  static final TopicPartition GPU = new TopicPartition(Topics.GPU, 0);

  /** A registry that knows no schema: a record reaching it is a dead letter, and then needs the (absent) database. */
  static final class BrokenRegistry implements SchemaRegistryClient {
    @Override
    public int register(String subject, Schema schema) {
      throw new IllegalStateException("registry client defect");
    }

    @Override
    public Schema getById(int id) {
      throw new IllegalStateException("registry client defect");
    }

    @Override
    public boolean testCompatibility(String subject, Schema schema) {
      return true;
    }
  }

  static SinkWorker worker(MockConsumer<byte[], byte[]> consumer, SinkMetrics metrics, String topic) {
    return new SinkWorker("sink-t", consumer, new MockProducer<String, DeadLetter>(), Topics.DLQ,
        new Database("jdbc:postgresql://127.0.0.1:1/none", "u", "", ""), new RecordDecoder(new BrokenRegistry()),
        List.of(topic), Duration.ofMillis(20), Duration.ofMillis(50), metrics, true, CopyFormat.of("binary"), Duration.ofSeconds(1));
  }

  static void await(String what, java.util.function.BooleanSupplier c) throws InterruptedException {
    long end = System.nanoTime() + 20_000_000_000L;
    while (!c.getAsBoolean()) {
      if (System.nanoTime() > end) throw new AssertionError("timed out: " + what);
      Thread.sleep(10);
    }
  }

  static MockConsumer<byte[], byte[]> assigned(TopicPartition tp) {
    MockConsumer<byte[], byte[]> c = new MockConsumer<>("earliest");
    c.schedulePollTask(() -> {
      c.rebalance(List.of(tp));
      c.updateBeginningOffsets(Map.of(tp, 0L));
    });
    return c;
  }

  @Test
  void anUnexpectedErrorInABatchIsRetriedAndItsOffsetsStayUncommitted() throws Exception {
    // a record of a topic the sink does not know: decoding it throws before any write
    TopicPartition unknown = new TopicPartition("fleet.not-a-topic.v1", 0);
    MockConsumer<byte[], byte[]> consumer = assigned(unknown);
    consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>(unknown.topic(), 0, 0L, "k".getBytes(), new byte[] {0, 0, 0, 0, 1, 2})));
    SinkMetrics metrics = new SinkMetrics();
    SinkWorker w = worker(consumer, metrics, unknown.topic());
    Thread t = new Thread(w, "sink-t");
    t.start();
    await("three attempts", () -> metrics.workerErrors.get() >= 3);
    assertThat(t.isAlive()).as("the worker goes on").isTrue();
    assertThat(consumer.committed(java.util.Set.of(unknown))).as("nothing committed").isEmpty();
    assertThat(metrics.records.get()).isZero();
    w.stop();
    t.join(10_000);
    assertThat(t.isAlive()).isFalse();
  }

  @Test
  void anErrorOutsideABatchRewindsToTheCommittedOffsetAndGoesOn() throws Exception {
    MockConsumer<byte[], byte[]> consumer = assigned(GPU);
    consumer.schedulePollTask(() -> consumer.setPollException(new KafkaException("poll defect")));
    SinkMetrics metrics = new SinkMetrics();
    SinkWorker w = worker(consumer, metrics, Topics.GPU);
    Thread t = new Thread(w, "sink-t");
    t.start();
    await("the poll error counted", () -> metrics.workerErrors.get() == 1);
    // the worker polls again: the next record is taken and its batch waits for the database
    consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>(Topics.GPU, 0, 0L, "k".getBytes(), new byte[] {0, 0, 0, 0, 1, 2})));
    await("the next poll's batch tried", () -> metrics.dbRetries.get() >= 1);
    assertThat(t.isAlive()).isTrue();
    assertThat(metrics.workerErrors.get()).isEqualTo(1);
    assertThat(consumer.position(GPU)).as("rewound, then the batch held").isEqualTo(1L);
    w.stop();
    t.join(10_000);
    assertThat(t.isAlive()).isFalse();
  }
}
