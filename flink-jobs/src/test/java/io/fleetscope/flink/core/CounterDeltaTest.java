package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CounterDeltaTest {
  private static final long MOD32_BYTES = CounterDelta.modulus(32, 4);

  @Test
  void increaseIsTheDifference() {
    assertThat(CounterDelta.delta(100L, 250L, 0, 0)).isEqualTo(150);
  }

  @Test
  void aCounterThatGoesDownWasResetAndCountsFromZero() {
    assertThat(CounterDelta.delta(5_000L, 120L, 0, 1e12)).isEqualTo(120);
  }

  @Test
  void a32BitWordCounterInBytesWrapsAtFourTimesTwoToThe32() {
    assertThat(MOD32_BYTES).isEqualTo(4L * 4294967296L);
    long prev = MOD32_BYTES - 1_000;
    assertThat(CounterDelta.delta(prev, 3_000L, MOD32_BYTES, 1e9)).isEqualTo(4_000);
  }

  @Test
  void anImplausibleWrapIsTakenForAReset() {
    long prev = 1_000_000L; // far below the modulus: going round would mean ~17 GB in the interval
    assertThat(CounterDelta.delta(prev, 10L, MOD32_BYTES, 1e9)).isEqualTo(10);
  }

  @Test
  void aMissingValueIsUnknown() {
    assertThat(CounterDelta.delta(null, 5L, 0, 0)).isEqualTo(CounterDelta.UNKNOWN);
    assertThat(CounterDelta.delta(5L, null, 0, 0)).isEqualTo(CounterDelta.UNKNOWN);
  }

  @Test
  void sixtyFourBitCountersHaveNoModulus() {
    assertThat(CounterDelta.modulus(null, 4)).isZero();
    assertThat(CounterDelta.modulus(64, 1)).isZero();
  }
}
