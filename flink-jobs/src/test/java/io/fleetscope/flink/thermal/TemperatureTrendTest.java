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
}
