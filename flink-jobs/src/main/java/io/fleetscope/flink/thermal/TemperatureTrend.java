package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.core.VarInts.readVarLong;
import static io.fleetscope.flink.core.VarInts.unzigzag;
import static io.fleetscope.flink.core.VarInts.writeVarLong;
import static io.fleetscope.flink.core.VarInts.zigzag;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Least-squares slope (and, on demand, a quadratic fit: {@link #quadraticFit}) of a temperature over a sliding
 * event-time window.
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

  /** Forgets every sample (a new power segment starts: what came before says nothing about the new steady state). */
  public void clear() {
    size = 0;
    origin = 0;
    sx = sy = sxx = sxy = 0;
  }

  /**
   * Least-squares quadratic {@code T(x) = c0 + c1 x + c2 x^2} over the window, x in seconds relative to the newest
   * sample, or null when the window does not yet hold enough evidence (as {@link #slopePerSecond()}, and at least 4
   * samples). The standard errors use the residual scatter, but never less than {@code noiseFloor}.
   */
  public TrendFit quadraticFit(double noiseFloor) {
    if (size < Math.max(4, minSamples) || ts[size - 1] - ts[0] < minSpanMs) {
      return null;
    }
    long now = ts[size - 1];
    double s0 = size, s1 = 0, s2 = 0, s3 = 0, s4 = 0, y0 = 0, y1 = 0, y2 = 0;
    for (int i = 0; i < size; i++) {
      double x = (ts[i] - now) / 1000.0;
      double xx = x * x;
      s1 += x;
      s2 += xx;
      s3 += xx * x;
      s4 += xx * xx;
      y0 += value[i];
      y1 += x * value[i];
      y2 += xx * value[i];
    }
    // inverse of the symmetric normal matrix [[s0 s1 s2] [s1 s2 s3] [s2 s3 s4]] by its adjugate
    double a00 = s2 * s4 - s3 * s3;
    double a01 = s2 * s3 - s1 * s4;
    double a02 = s1 * s3 - s2 * s2;
    double a11 = s0 * s4 - s2 * s2;
    double a12 = s1 * s2 - s0 * s3;
    double a22 = s0 * s2 - s1 * s1;
    double det = s0 * a00 + s1 * a01 + s2 * a02;
    if (!(Math.abs(det) > 1e-9)) {
      return null;
    }
    double c0 = (a00 * y0 + a01 * y1 + a02 * y2) / det;
    double c1 = (a01 * y0 + a11 * y1 + a12 * y2) / det;
    double c2 = (a02 * y0 + a12 * y1 + a22 * y2) / det;
    double rss = 0;
    for (int i = 0; i < size; i++) {
      double x = (ts[i] - now) / 1000.0;
      double r = value[i] - (c0 + c1 * x + c2 * x * x);
      rss += r * r;
    }
    double sigma = Math.max(noiseFloor, size > 3 ? Math.sqrt(rss / (size - 3)) : 0);
    double linear = (s0 * y1 - s1 * y0) / (s0 * s2 - s1 * s1);
    return new TrendFit(c0, c1, linear, c2, sigma * Math.sqrt(Math.max(0, a11 / det)), sigma * Math.sqrt(Math.max(0, a22 / det)),
        sigma, (now - ts[0]) / 1000.0);
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
