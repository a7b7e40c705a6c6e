package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.core.VarInts.readVarLong;
import static io.fleetscope.flink.core.VarInts.unzigzag;
import static io.fleetscope.flink.core.VarInts.writeVarLong;
import static io.fleetscope.flink.core.VarInts.zigzag;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Least-squares slope of a temperature over a sliding event-time window.
 *
 * <p>Samples older than the window (relative to the newest sample) are evicted. Out-of-order samples
 * are accepted as long as they fall inside the window. The slope is reported only once the window
 * holds at least {@code minSamples} samples spanning at least {@code minSpanMs}, so one noisy pair
 * of samples never predicts a throttle.
 *
 * <p>The least-squares sums are kept up to date as samples enter and leave the window, so a slope
 * costs O(1) instead of a pass over the window (300 samples per GPU per second with the defaults).
 * Times enter the sums relative to an origin that is moved, and the sums recomputed exactly, once
 * the newest sample is more than two windows past it: that bounds both the magnitude of the terms
 * and the rounding that adding and subtracting accumulates.
 *
 * <p>In a checkpoint only the samples in the window are written, times as varint deltas and values
 * in tenths where that is exact (temperatures are whole or tenth degrees), about 4 bytes a sample
 * instead of the 16 of both arrays at their capacity: with one trend per GPU and a 300 s window,
 * the arrays were most of the analytics' checkpoint (8 KiB per GPU). The running sums are written
 * as they are, so a restored trend gives the same slopes, bit for bit.
 */
public final class TemperatureTrend implements Serializable {
  private static final long serialVersionUID = 2L;
  private final long windowMs;
  private final int minSamples;
  private final long minSpanMs;
  private transient long[] ts = new long[8];
  private transient double[] value = new double[8];
  private int size;
  /** Origin of x = (ts - origin) / 1000 in the sums. */
  private long origin;
  private double sx;
  private double sy;
  private double sxx;
  private double sxy;

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
    if (size == 1) {
      origin = tsMs;
    }
    accumulate(tsMs, v, 1);
    evictBefore(ts[size - 1] - windowMs);
    if (ts[size - 1] - origin > 2 * windowMs || tsMs < origin) {
      rebase();
    }
  }

  private void accumulate(long tsMs, double v, int sign) {
    double x = (tsMs - origin) / 1000.0;
    sx += sign * x;
    sy += sign * v;
    sxx += sign * x * x;
    sxy += sign * x * v;
  }

  /** Moves the origin to the oldest sample and recomputes the sums exactly. */
  private void rebase() {
    origin = size > 0 ? ts[0] : 0;
    sx = sy = sxx = sxy = 0;
    for (int i = 0; i < size; i++) {
      accumulate(ts[i], value[i], 1);
    }
  }

  private void evictBefore(long minTs) {
    int drop = 0;
    while (drop < size && ts[drop] < minTs) {
      drop++;
    }
    for (int i = 0; i < drop; i++) {
      accumulate(ts[i], value[i], -1);
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
    double den = size * sxx - sx * sx;
    if (den == 0) {
      return null;
    }
    return (size * sxy - sx * sy) / den;
  }

  private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
    out.defaultWriteObject();
    long prev = origin;
    for (int i = 0; i < size; i++) {
      writeVarLong(out, zigzag(ts[i] - prev));
      prev = ts[i];
      double v = value[i];
      long tenths = Math.round(v * 10);
      if (Math.abs(tenths) < (1L << 40) && tenths / 10.0 == v && Double.doubleToRawLongBits(v) != Long.MIN_VALUE) {
        writeVarLong(out, zigzag(tenths) << 1); // exact in tenths (not -0.0)
      } else {
        writeVarLong(out, 1);
        out.writeDouble(v);
      }
    }
  }

  private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
    in.defaultReadObject();
    int capacity = Math.max(8, Integer.highestOneBit(Math.max(1, size)) << 1);
    ts = new long[capacity];
    value = new double[capacity];
    long prev = origin;
    for (int i = 0; i < size; i++) {
      prev += unzigzag(readVarLong(in));
      ts[i] = prev;
      long tag = readVarLong(in);
      value[i] = (tag & 1) == 0 ? unzigzag(tag >>> 1) / 10.0 : in.readDouble();
    }
  }
}
