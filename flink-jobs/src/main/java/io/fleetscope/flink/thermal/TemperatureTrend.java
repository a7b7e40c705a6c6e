package io.fleetscope.flink.thermal;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Least-squares slope of a temperature over a sliding event-time window.
 *
 * <p>Samples older than the window (relative to the newest sample) are evicted. Out-of-order samples
 * are accepted as long as they fall inside the window. The slope is reported only once the window
 * holds at least {@code minSamples} samples spanning at least {@code minSpanMs}, so one noisy pair
 * of samples never predicts a throttle.
 */
public final class TemperatureTrend implements Serializable {
  private final long windowMs;
  private final int minSamples;
  private final long minSpanMs;
  private long[] ts = new long[8];
  private double[] value = new double[8];
  private int size;

  public TemperatureTrend(long windowMs, int minSamples, long minSpanMs) {
    if (windowMs <= 0 || minSamples < 2 || minSpanMs < 0) {
      throw new IllegalArgumentException(
          "trend window must be > 0 ms, min samples >= 2 and min span >= 0 (got window="
              + windowMs + " minSamples=" + minSamples + " minSpan=" + minSpanMs + ")");
    }
    this.windowMs = windowMs;
    this.minSamples = minSamples;
    this.minSpanMs = minSpanMs;
  }

  /** Adds one sample (epoch ms, value). */
  public void add(long tsMs, double v) {
    if (size == ts.length) {
      ts = Arrays.copyOf(ts, size * 2);
      value = Arrays.copyOf(value, size * 2);
    }
    // keep sorted by time (samples arrive almost in order: insertion from the end)
    int i = size;
    while (i > 0 && ts[i - 1] > tsMs) {
      ts[i] = ts[i - 1];
      value[i] = value[i - 1];
      i--;
    }
    ts[i] = tsMs;
    value[i] = v;
    size++;
    evictBefore(ts[size - 1] - windowMs);
  }

  private void evictBefore(long minTs) {
    int drop = 0;
    while (drop < size && ts[drop] < minTs) {
      drop++;
    }
    if (drop > 0) {
      System.arraycopy(ts, drop, ts, 0, size - drop);
      System.arraycopy(value, drop, value, 0, size - drop);
      size -= drop;
    }
  }

  public int size() {
    return size;
  }

  /** Slope in units per second, or null when the window does not yet hold enough evidence. */
  public Double slopePerSecond() {
    if (size < minSamples || ts[size - 1] - ts[0] < minSpanMs || ts[size - 1] == ts[0]) {
      return null;
    }
    long t0 = ts[0];
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < size; i++) {
      double x = (ts[i] - t0) / 1000.0;
      sx += x;
      sy += value[i];
      sxx += x * x;
      sxy += x * value[i];
    }
    double den = size * sxx - sx * sx;
    if (den == 0) {
      return null;
    }
    return (size * sxy - sx * sy) / den;
  }
}
