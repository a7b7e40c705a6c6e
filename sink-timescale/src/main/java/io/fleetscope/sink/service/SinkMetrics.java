package io.fleetscope.sink.service;

import java.util.concurrent.atomic.AtomicLong;

/** Counters of the sink, shared by its workers (for progress lines and tests). */
public final class SinkMetrics {
  public final AtomicLong records = new AtomicLong();
  public final AtomicLong inserted = new AtomicLong();
  public final AtomicLong rejected = new AtomicLong();
  public final AtomicLong batches = new AtomicLong();
  public final AtomicLong dbRetries = new AtomicLong();
  public final AtomicLong committedBatches = new AtomicLong();
  /** System.nanoTime() of the first non-empty poll (0 until then) and of the latest offset commit. */
  public final AtomicLong firstPollNanos = new AtomicLong();
  public final AtomicLong lastCommitNanos = new AtomicLong();

  @Override
  public String toString() {
    return "records=" + records + " inserted=" + inserted + " rejected=" + rejected + " batches=" + batches
        + " db_retries=" + dbRetries;
  }
}
