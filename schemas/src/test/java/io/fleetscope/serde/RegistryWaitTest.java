package io.fleetscope.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuSample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The decisions: what is waited out (unreachable, 5xx, 408, 429), what is final (404, 422, ...). */
class RegistryWaitTest {
  private final List<Long> slept = new ArrayList<>();
  private final AtomicLong nanos = new AtomicLong();
  private final RegistryWait wait = new RegistryWait(new Backoff(Duration.ofMillis(100), Duration.ofMillis(400)),
      ms -> {
        slept.add(ms);
        nanos.addAndGet(ms * 1_000_000);
      }, nanos::get);

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  /** Fails with {@code failures} in order, then answers 42. */
  private static java.util.function.Supplier<Integer> failing(AtomicInteger calls, RegistryException... failures) {
    return () -> {
      int n = calls.getAndIncrement();
      if (n < failures.length) {
        throw failures[n];
      }
      return 42;
    };
  }

  private static RegistryException status(int http) {
    return new RegistryException(http, http * 100 + 1, "http " + http);
  }

  @Test
  void waitsOutUnreachableAnd5xxWithCappedBackoffThenReturnsTheAnswer() {
    AtomicInteger calls = new AtomicInteger();
    int v = wait.call("schema id 7", failing(calls, status(RegistryException.UNREACHABLE), status(503), status(500),
        status(408), status(429), status(502)));
    assertThat(v).isEqualTo(42);
    assertThat(calls.get()).isEqualTo(7);
    // 100, 200, 400, 400, 400, 400 ms in slices of at most 100 ms
    assertThat(slept.stream().mapToLong(Long::longValue).sum()).isEqualTo(1900);
    assertThat(slept).allMatch(ms -> ms <= RegistryWait.SLICE_MS);
  }

  @Test
  void notFoundAndOtherFinalAnswersAreThrownAtOnceWithoutWaiting() {
    for (int http : new int[] {404, 422, 400, 401, 403, 409}) {
      AtomicInteger calls = new AtomicInteger();
      assertThatThrownBy(() -> wait.call("schema id 7", failing(calls, status(http))))
          .isInstanceOf(RegistryException.class)
          .satisfies(e -> assertThat(((RegistryException) e).httpStatus()).isEqualTo(http));
      assertThat(calls.get()).as("http %d", http).isEqualTo(1);
    }
    assertThat(slept).isEmpty();
  }

  @Test
  void aFinalAnswerAfterAnOutageIsThrown() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> wait.call("schema id 9", failing(calls, status(0), status(0), status(404))))
        .isInstanceOf(RegistryException.class).hasMessage("http 404");
    assertThat(calls.get()).isEqualTo(3);
  }

  @Test
  void anInterruptEndsTheWaitWithAbortedAndKeepsTheFlag() {
    RegistryWait w = new RegistryWait(Backoff.REGISTRY, ms -> {
      throw new InterruptedException("task cancelled");
    }, System::nanoTime);
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(() -> w.call("schema id 7", failing(calls, status(0), status(0))))
        .isInstanceOf(RegistryWaitAbortedException.class).hasMessageContaining("interrupted")
        .hasCauseInstanceOf(RegistryException.class);
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
    assertThat(calls.get()).isEqualTo(1);
  }

  @Test
  void cancelEndsAWaitInProgressWithinASlice() throws Exception {
    RegistryWait w = new RegistryWait(Backoff.REGISTRY);
    AtomicInteger calls = new AtomicInteger();
    List<Throwable> thrown = new ArrayList<>();
    Thread t = new Thread(() -> {
      try {
        w.call("schema id 7", () -> {
          calls.incrementAndGet();
          throw status(0);
        });
      } catch (Throwable e) {
        thrown.add(e);
      }
    });
    t.start();
    while (calls.get() < 2) {
      Thread.onSpinWait();
    }
    long t0 = System.nanoTime();
    w.cancel();
    t.join(5_000);
    assertThat(t.isAlive()).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
    assertThat(thrown).singleElement().isInstanceOf(RegistryWaitAbortedException.class);
  }

  /** The deserializer with a wait: an outage is waited out, an unknown id fails the record with that reason. */
  @Test
  void deserializerWaitsOutAnOutageButFailsAnUnknownSchemaId() {
    InMemoryRegistry real = new InMemoryRegistry();
    byte[] bytes = new AvroSerializer<GpuSample>(real).serialize("fleet.gpu.v1", AvroSerdeTest.sample());
    AtomicInteger down = new AtomicInteger(3);
    SchemaRegistryClient flaky = new SchemaRegistryClient() {
      @Override
      public int register(String subject, Schema schema) {
        return real.register(subject, schema);
      }

      @Override
      public Schema getById(int id) {
        if (down.getAndDecrement() > 0) {
          throw new RegistryException(RegistryException.UNREACHABLE, 0, "connection refused");
        }
        return real.getById(id);
      }

      @Override
      public boolean testCompatibility(String subject, Schema schema) {
        return true;
      }
    };
    AvroDeserializer<GpuSample> d = new AvroDeserializer<>(flaky, GpuSample.class, wait);
    assertThat(d.deserialize("fleet.gpu.v1", bytes)).isEqualTo(AvroSerdeTest.sample());
    assertThat(slept).isNotEmpty();

    byte[] unknown = bytes.clone();
    unknown[4] = 99; // schema id 99
    assertThatThrownBy(() -> d.deserialize("fleet.gpu.v1", unknown))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("unknown schema id 99 (not in the registry: http=404 error_code=40403)");

    // without a wait, the same outage fails the call (the sink retries its batch on that)
    down.set(1);
    AvroDeserializer<GpuSample> failFast = new AvroDeserializer<>(flaky, GpuSample.class);
    assertThatThrownBy(() -> failFast.deserialize("fleet.gpu.v1", bytes))
        .isInstanceOf(SerializationException.class).hasMessageContaining("cannot fetch schema id");
  }
}
