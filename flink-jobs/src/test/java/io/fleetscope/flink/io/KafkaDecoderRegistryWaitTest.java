package io.fleetscope.flink.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.RegistryWaitAbortedException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The Kafka decoder facing a registry that refuses connections (nothing listens on 127.0.0.1:1):
 * it keeps waiting rather than dead-lettering the record, and a task cancel (an interrupt of the
 * task thread) ends the wait with an exception that fails the task, still without a dead letter.
 */
class KafkaDecoderRegistryWaitTest {
  @Test
  void anUnreachableRegistryIsWaitedForAndAnInterruptEndsTheWaitWithoutADeadLetter() throws Exception {
    KafkaTelemetrySource.Decoder decoder = new KafkaTelemetrySource.Decoder(Topics.require(Topics.GPU),
        "http://127.0.0.1:1", Runs.CLOCK);
    byte[] value = ByteBuffer.allocate(8).put((byte) 0).putInt(3).put(new byte[] {2, 4, 6}).array();
    ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(Topics.GPU, 0, 7L, "node-a".getBytes(), value);
    List<SpecificRecord> out = new ArrayList<>();
    Collector<SpecificRecord> collector = new Collector<>() {
      @Override
      public void collect(SpecificRecord r) {
        out.add(r);
      }

      @Override
      public void close() {}
    };
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread task = new Thread(() -> {
      try {
        decoder.deserialize(record, collector);
      } catch (Throwable t) {
        thrown.set(t);
      }
    });
    task.start();
    task.join(Duration.ofSeconds(3).toMillis());
    assertThat(task.isAlive()).as("still waiting for the registry after 3 s").isTrue();
    assertThat(out).as("nothing emitted, no dead letter").isEmpty();

    long t0 = System.nanoTime();
    task.interrupt(); // what Flink does to cancel a task
    task.join(Duration.ofSeconds(10).toMillis());
    assertThat(task.isAlive()).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    assertThat(thrown.get()).isInstanceOf(RegistryWaitAbortedException.class);
    assertThat(out).isEmpty();
  }
}
