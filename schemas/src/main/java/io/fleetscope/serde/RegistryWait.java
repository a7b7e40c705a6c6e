package io.fleetscope.serde;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits out a registry that cannot answer: a call that fails with a transient
 * {@link RegistryException} (unreachable, 5xx, 408, 429; see {@link RegistryException#isTransient()})
 * is retried after a capped exponential {@link Backoff}, for as long as it takes, so the calling
 * consumer blocks its progress instead of skipping records. A final answer (404 not found, 422, ...)
 * is thrown at once. One log line when a wait starts and one when the registry answers again, with
 * how long it took; none per retry.
 *
 * <p>The wait ends early, with {@link RegistryWaitAbortedException}, when the waiting thread is
 * interrupted (Flink cancels a task that way) or {@link #cancel()} is called (a Kafka Streams app
 * that closes); sleeps are short slices so either is noticed within {@value #SLICE_MS} ms.
 */
public final class RegistryWait {
  private static final Logger log = LoggerFactory.getLogger(RegistryWait.class);
  static final long SLICE_MS = 100;

  /** Sleeps, interruptibly; tests pass one that records the delays. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  private final Backoff backoff;
  private final Sleeper sleeper;
  private final LongSupplier nanoTime;
  private volatile boolean cancelled;

  public RegistryWait(Backoff backoff) {
    this(backoff, Thread::sleep, System::nanoTime);
  }

  public RegistryWait(Backoff backoff, Sleeper sleeper, LongSupplier nanoTime) {
    this.backoff = backoff;
    this.sleeper = sleeper;
    this.nanoTime = nanoTime;
  }

  /** Ends every wait in progress and every later one with {@link RegistryWaitAbortedException}. */
  public void cancel() {
    cancelled = true;
  }

  public Backoff backoff() {
    return backoff;
  }

  /**
   * {@code call}'s result, once the registry answers.
   *
   * @param what what is being fetched, for the log ({@code "schema id 7 for topic fleet.gpu.v1"})
   * @throws RegistryException a final (non-transient) answer
   * @throws RegistryWaitAbortedException interrupted or cancelled while waiting
   */
  public <T> T call(String what, Supplier<T> call) {
    long start = 0;
    int retries = 0;
    while (true) {
      abortIfStopping(what, null);
      try {
        T value = call.get();
        if (retries > 0) {
          log.info("registry available again what=\"{}\" waited_ms={} retries={}", what,
              TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - start), retries);
        }
        return value;
      } catch (RegistryException e) {
        if (!e.isTransient() || Thread.currentThread().isInterrupted()) {
          abortIfStopping(what, e);
          throw e;
        }
        if (retries == 0) {
          start = nanoTime.getAsLong();
          log.warn("registry unavailable, waiting what=\"{}\" http_status={} reason=\"{}\" backoff_max_ms={}", what,
              e.httpStatus(), e.getMessage(), backoff.max().toMillis());
        }
        retries++;
        pause(backoff.delayMs(retries), what, e);
      }
    }
  }

  private void pause(long ms, String what, RegistryException last) {
    long left = ms;
    while (left > 0) {
      long slice = Math.min(left, SLICE_MS);
      try {
        sleeper.sleep(slice);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        abortIfStopping(what, last);
      }
      abortIfStopping(what, last);
      left -= slice;
    }
  }

  private void abortIfStopping(String what, RegistryException last) {
    if (cancelled || Thread.currentThread().isInterrupted()) {
      throw new RegistryWaitAbortedException("stopped waiting for the schema registry (" + what + "): "
          + (cancelled ? "cancelled" : "interrupted"), last);
    }
  }
}
