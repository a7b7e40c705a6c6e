package io.fleetscope.flink.peer;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * Means of one GPU's metrics over one window (sums and counts, so partial aggregates merge).
 */
public final class GpuWindowStats implements Serializable {
  public double tempSum;
  public int tempCount;
  public double powerSum;
  public int powerCount;
  public double smClockSum;
  public int smClockCount;

  public void add(Double tempC, Double powerW, Double smClockMhz) {
    if (tempC != null) { tempSum += tempC; tempCount++; }
    if (powerW != null) { powerSum += powerW; powerCount++; }
    if (smClockMhz != null) { smClockSum += smClockMhz; smClockCount++; }
  }

  public void merge(GpuWindowStats o) {
    tempSum += o.tempSum; tempCount += o.tempCount;
    powerSum += o.powerSum; powerCount += o.powerCount;
    smClockSum += o.smClockSum; smClockCount += o.smClockCount;
  }

  public Double temp() { return tempCount == 0 ? null : tempSum / tempCount; }
  public Double power() { return powerCount == 0 ? null : powerSum / powerCount; }
  public Double smClock() { return smClockCount == 0 ? null : smClockSum / smClockCount; }

  public Double metric(String name) {
    return switch (name) {
      case "temp_c" -> temp();
      case "power_w" -> power();
      case "sm_clock_mhz" -> smClock();
      default -> throw new IllegalArgumentException("peer: unknown GPU metric " + name
          + " (known: temp_c, power_w, sm_clock_mhz)");
    };
  }

  /**
   * The values of one metric across a group's members. For {@code temp_c} only members whose power
   * is within {@code powerSimilarityPct} of the group's median power take part ("temperature at
   * similar power"), so a GPU that is simply working harder is not called hot.
   */
  public static Map<String, Double> valuesOf(String metric, Map<String, GpuWindowStats> members, double powerSimilarityPct) {
    Map<String, Double> out = new HashMap<>();
    Double medianPower = null;
    if (metric.equals("temp_c")) {
      double[] p = members.values().stream().map(GpuWindowStats::power).filter(v -> v != null)
          .mapToDouble(Double::doubleValue).toArray();
      if (p.length > 0) {
        medianPower = RobustZ.median(p);
      }
    }
    for (Map.Entry<String, GpuWindowStats> e : members.entrySet()) {
      Double v = e.getValue().metric(metric);
      if (v == null) {
        continue;
      }
      if (medianPower != null && medianPower > 0) {
        Double p = e.getValue().power();
        if (p == null || Math.abs(p - medianPower) / medianPower * 100 > powerSimilarityPct) {
          continue;
        }
      }
      out.put(e.getKey(), v);
    }
    return out;
  }
}
