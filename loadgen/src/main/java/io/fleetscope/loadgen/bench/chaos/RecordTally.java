package io.fleetscope.loadgen.bench.chaos;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** How many times each record id was seen (acknowledged by the broker, stored, read from a topic); thread-safe. */
public final class RecordTally {
  private final ConcurrentHashMap<RecordId, Integer> counts = new ConcurrentHashMap<>();

  public void add(RecordId id) {
    if (id != null) {
      counts.merge(id, 1, Integer::sum);
    }
  }

  public void add(RecordId id, int times) {
    if (id != null && times > 0) {
      counts.merge(id, times, Integer::sum);
    }
  }

  public int count(RecordId id) {
    return counts.getOrDefault(id, 0);
  }

  /** Distinct ids. */
  public int size() {
    return counts.size();
  }

  /** Every sighting, repeats included. */
  public long total() {
    return counts.values().stream().mapToLong(Integer::longValue).sum();
  }

  /** A copy without the records of {@code source} (a node or device). */
  public RecordTally without(String source) {
    RecordTally t = new RecordTally();
    counts.forEach((id, n) -> {
      if (!id.source().equals(source)) {
        t.add(id, n);
      }
    });
    return t;
  }

  /** A sorted copy. */
  public Map<RecordId, Integer> snapshot() {
    return new TreeMap<>(counts);
  }
}
