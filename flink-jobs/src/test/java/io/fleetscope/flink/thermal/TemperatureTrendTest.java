package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TemperatureTrendTest {
  @Test
  void linearRiseGivesItsSlope() {
    TemperatureTrend t = new TemperatureTrend(300_000, 3, 30_000);
    for (int i = 0; i <= 6; i++) {
      t.add(1_000_000 + i * 10_000L, 60 + i * 0.5); // +0.5 C per 10 s = 0.05 C/s
    }
    assertThat(t.slopePerSecond()).isCloseTo(0.05, within(1e-9));
  }

  @Test
  void needsEnoughSamplesAndSpan() {
    TemperatureTrend t = new TemperatureTrend(300_000, 3, 30_000);
    t.add(0, 60);
    t.add(10_000, 61);
    assertThat(t.slopePerSecond()).isNull();
    t.add(20_000, 62);
    assertThat(t.slopePerSecond()).as("3 samples but only 20 s span").isNull();
    t.add(30_000, 63);
    assertThat(t.slopePerSecond()).isCloseTo(0.1, within(1e-9));
  }

  @Test
  void oldSamplesLeaveTheWindow() {
    TemperatureTrend t = new TemperatureTrend(60_000, 3, 0);
    // a rise long ago, then flat for more than the window
    for (int i = 0; i < 10; i++) t.add(i * 10_000L, 40 + i * 5);
    for (int i = 10; i < 20; i++) t.add(i * 10_000L, 85);
    assertThat(t.size()).isEqualTo(7);
    assertThat(t.slopePerSecond()).isCloseTo(0.0, within(1e-9));
  }

  @Test
  void outOfOrderSampleIsPlacedByTime() {
    TemperatureTrend t = new TemperatureTrend(300_000, 3, 0);
    t.add(0, 60);
    t.add(20_000, 62);
    t.add(10_000, 61);
    assertThat(t.slopePerSecond()).isCloseTo(0.1, within(1e-9));
  }

  @Test
  void runningSumsMatchADirectFitOverManyWindows() {
    // a day of 1 s samples with a slow wave, noise and a few out-of-order arrivals: the O(1) slope
    // must agree with a least-squares fit of exactly the samples inside the window, across the
    // evictions and the origin moves (every two windows)
    TemperatureTrend t = new TemperatureTrend(300_000, 3, 30_000);
    java.util.Random rnd = new java.util.Random(7);
    java.util.TreeMap<Long, Double> all = new java.util.TreeMap<>();
    long base = 1_780_000_000_000L;
    for (int i = 0; i < 86_400; i++) {
      long ts = base + i * 1000L + (i % 97 == 0 && i > 0 ? -1500 : 0);
      double v = 70 + 8 * Math.sin(i / 900.0) + rnd.nextGaussian() * 0.3;
      all.put(ts, v);
      t.add(ts, v);
      if (i % 3_600 == 1_799) {
        long newest = all.lastKey();
        var window = all.subMap(newest - 300_000, true, newest, true);
        double n = window.size(), sx = 0, sy = 0, sxx = 0, sxy = 0;
        long t0 = window.firstKey();
        for (var e : window.entrySet()) {
          double x = (e.getKey() - t0) / 1000.0;
          sx += x;
          sy += e.getValue();
          sxx += x * x;
          sxy += x * e.getValue();
        }
        double expected = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        assertThat(t.size()).isEqualTo(window.size());
        assertThat(t.slopePerSecond()).as("sample %d", i).isCloseTo(expected, within(1e-9));
      }
    }
  }

  private static byte[] serialize(Object o) throws Exception {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(b)) {
      out.writeObject(o);
    }
    return b.toByteArray();
  }

  private static TemperatureTrend restore(byte[] bytes) throws Exception {
    try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes))) {
      return (TemperatureTrend) in.readObject();
    }
  }

  @Test
  void aCheckpointHoldsTheWindowCompactlyAndARestoredTrendContinuesBitForBit() throws Exception {
    TemperatureTrend t = new TemperatureTrend(300_000, 3, 30_000);
    java.util.Random rnd = new java.util.Random(11);
    long base = 1_780_000_000_000L;
    for (int i = 0; i < 900; i++) { // whole and tenth degrees, as nvidia-smi and DCGM report them
      t.add(base + i * 1000L, 60 + (i % 50) / 10.0 + (i / 100));
    }
    byte[] bytes = serialize(t);
    // 301 samples in the window: about 4 bytes each plus the class description (was 8 KiB of arrays)
    assertThat(bytes.length).isLessThan(1_600);
    TemperatureTrend r = restore(bytes);
    assertThat(r.size()).isEqualTo(t.size());
    assertThat(r.slopePerSecond()).isEqualTo(t.slopePerSecond());
    for (int i = 900; i < 1_500; i++) { // then values that are not tenths, out of order now and then
      long ts = base + i * 1000L - (i % 37 == 0 ? 1_500 : 0);
      double v = 65 + rnd.nextGaussian();
      t.add(ts, v);
      r.add(ts, v);
      assertThat(r.slopePerSecond()).as("sample %d", i).isEqualTo(t.slopePerSecond());
    }
    TemperatureTrend again = restore(serialize(r));
    assertThat(again.slopePerSecond()).isEqualTo(t.slopePerSecond());
    t.add(base + 1_500_000L, -0.0);
    again.add(base + 1_500_000L, -0.0);
    assertThat(restore(serialize(again)).slopePerSecond()).isEqualTo(t.slopePerSecond());
  }
}
