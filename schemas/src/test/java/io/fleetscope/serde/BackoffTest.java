package io.fleetscope.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void doublesFromTheInitialDelayUpToTheCap() {
    Backoff b = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10));
    assertThat(IntStream.rangeClosed(1, 9).mapToLong(b::delayMs).toArray())
        .containsExactly(200, 400, 800, 1600, 3200, 6400, 10_000, 10_000, 10_000);
    assertThat(b.delayMs(Integer.MAX_VALUE)).isEqualTo(10_000);
  }

  @Test
  void refusesAZeroInitialDelayAndACapBelowIt() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initial delay must be > 0");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be >= the initial delay");
    assertThatThrownBy(() -> Backoff.REGISTRY.delayMs(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
