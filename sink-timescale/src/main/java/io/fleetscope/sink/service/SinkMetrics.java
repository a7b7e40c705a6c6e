package io.fleetscope.sink.service;

import io.fleetscope.sink.write.WritePaths;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of the sink, shared by its workers (for progress lines and tests). */
public final class SinkMetrics {
  public final AtomicLong records = new AtomicLong();
  public final AtomicLong inserted = new AtomicLong();
  public final AtomicLong rejected = new AtomicLong();
  /** Dead letters cut to fit the DLQ producer's max.request.size (the dead_letters table keeps them whole). */
  public final AtomicLong deadLettersTruncated = new AtomicLong();
  public final AtomicLong batches = new AtomicLong();
  public final AtomicLong dbRetries = new AtomicLong();
  public final AtomicLong committedBatches = new AtomicLong();
  /** System.nanoTime() of the first non-empty poll (0 until then) and of the latest offset commit. */
  public final AtomicLong firstPollNanos = new AtomicLong();
  public final AtomicLong lastCommitNanos = new AtomicLong();
  /**
   * Where the workers' time went, summed over workers (ns): waiting in poll for records, decoding,
   * writing to the database (COPY and INSERTs), the database commit, and the offset commit.
   */
  public final AtomicLong pollNanos = new AtomicLong();
  public final AtomicLong decodeNanos = new AtomicLong();
  public final AtomicLong writeNanos = new AtomicLong();
  public final AtomicLong dbCommitNanos = new AtomicLong();
  public final AtomicLong offsetCommitNanos = new AtomicLong();
  /** Which write path the batches took (direct COPY, staging, fallbacks from direct to staging). */
  public final WritePaths paths = new WritePaths();

  @Override
  public String toString() {
    return "records=" + records + " inserted=" + inserted + " rejected=" + rejected + " dead_letters_truncated=" + deadLettersTruncated + " batches=" + batches
        + " db_retries=" + dbRetries + " " + paths + " poll_ms=" + pollNanos.get() / 1_000_000 + " decode_ms="
        + decodeNanos.get() / 1_000_000 + " write_ms=" + writeNanos.get() / 1_000_000 + " db_commit_ms="
        + dbCommitNanos.get() / 1_000_000 + " offset_commit_ms=" + offsetCommitNanos.get() / 1_000_000;
  }
}
