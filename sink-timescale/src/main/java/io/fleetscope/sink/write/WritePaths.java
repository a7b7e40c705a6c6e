package io.fleetscope.sink.write;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How batches reached their tables (counted per COPY attempt, also of transactions that were
 * later rolled back): {@code direct} COPYs straight into the table that succeeded, {@code staging}
 * batches written through the staging table, {@code fallbacks} direct COPYs rolled back because a
 * row was already stored (or refused), after which the staging path ran.
 */
public final class WritePaths {
  public final AtomicLong direct = new AtomicLong();
  public final AtomicLong staging = new AtomicLong();
  public final AtomicLong fallbacks = new AtomicLong();

  @Override
  public String toString() {
    return "direct_copies=" + direct + " staging_copies=" + staging + " direct_fallbacks=" + fallbacks;
  }
}
