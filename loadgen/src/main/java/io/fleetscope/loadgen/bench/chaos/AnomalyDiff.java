package io.fleetscope.loadgen.bench.chaos;

import java.util.Set;
import java.util.TreeSet;

/**
 * The live pipeline's anomalies against a bounded {@code analyze} of the same input, each as a
 * string that names it completely (alertname, fingerprint, status, start, end, time).
 */
public record AnomalyDiff(int batch, int live, Set<String> missingLive, Set<String> extraLive) {

  public static AnomalyDiff of(Set<String> batch, Set<String> live) {
    Set<String> missing = new TreeSet<>(batch);
    missing.removeAll(live);
    Set<String> extra = new TreeSet<>(live);
    extra.removeAll(batch);
    return new AnomalyDiff(batch.size(), live.size(), missing, extra);
  }

  /** The live pipeline produced every anomaly the batch did, and nothing else. */
  public boolean passed() {
    return batch > 0 && missingLive.isEmpty() && extraLive.isEmpty();
  }
}
