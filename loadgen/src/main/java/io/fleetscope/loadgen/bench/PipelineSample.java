package io.fleetscope.loadgen.bench;

import java.util.Map;

/**
 * One second of the pipeline benchmark.
 *
 * @param tS seconds since the run started
 * @param producedRps records produced in the last second
 * @param lagByGroup consumer lag per group (records)
 * @param latencyP50Ms sample-to-anomaly latency, median over the last 10 s (NaN when none arrived)
 * @param latencyP99Ms the same, 99th percentile
 * @param cpuPct CPU use per component over the last second, percent of one core
 * @param rssMib resident memory per component, MiB
 */
public record PipelineSample(double tS, double producedRps, Map<String, Long> lagByGroup, double latencyP50Ms,
    double latencyP99Ms, Map<String, Double> cpuPct, Map<String, Double> rssMib) {

  public long totalLag() {
    return lagByGroup.values().stream().mapToLong(v -> Math.max(0, v)).sum();
  }
}
