package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.flink.core.Hysteresis.Change;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HysteresisTest {
  /** Fires above 100, clear at or below 90, resolves after 30 s clear. */
  private final Threshold above = Threshold.above(100, 0.1, 30_000);

  @Test
  void thresholdSidesAndMargins() {
    assertThat(above.breached(100)).isFalse();
    assertThat(above.breached(100.1)).isTrue();
    assertThat(above.clear(95)).as("below the limit but inside the margin").isFalse();
    assertThat(above.clear(90)).isTrue();
    assertThat(above.resolveAt()).isEqualTo(90);
    Threshold atLeast = Threshold.atLeast(10, 0, 0);
    assertThat(atLeast.breached(10)).isTrue();
    assertThat(atLeast.clear(10)).isFalse();
    assertThat(atLeast.clear(9)).isTrue();
    Threshold below = Threshold.below(-0.3, 0.2, 0);
    assertThat(below.breached(-0.31)).isTrue();
    assertThat(below.clear(-0.25)).isFalse();
    assertThat(below.clear(-0.24)).isTrue();
    assertThatThrownBy(() -> Threshold.above(1, 1.0, 0)).hasMessageContaining("resolve margin");
    assertThatThrownBy(() -> Threshold.above(1, 0, -1)).hasMessageContaining("hold");
  }

  @Test
  void aValueAlternatingAcrossTheLimitEverySampleFor10MinutesIsOneFiring() {
    Hysteresis h = new Hysteresis();
    List<Change> changes = new ArrayList<>();
    for (int s = 0; s < 600; s++) {
      Change c = h.update(above, s % 2 == 0 ? 101 : 99, s * 1000L);
      if (c != Change.NONE) {
        changes.add(c);
      }
    }
    assertThat(changes).containsExactly(Change.FIRE);
    assertThat(h.firing()).isTrue();
  }

  @Test
  void aRealRecoveryResolvesAfterTheHoldAndABreachRestartsIt() {
    Hysteresis h = new Hysteresis();
    assertThat(h.update(above, 120, 0)).isEqualTo(Change.FIRE);
    assertThat(h.update(above, 80, 10_000)).isEqualTo(Change.NONE);
    assertThat(h.holding()).isTrue();
    assertThat(h.update(above, 95, 20_000)).as("inside the margin: the hold restarts").isEqualTo(Change.NONE);
    assertThat(h.holding()).isFalse();
    assertThat(h.update(above, 80, 30_000)).isEqualTo(Change.NONE);
    assertThat(h.update(above, 80, 59_999)).isEqualTo(Change.NONE);
    assertThat(h.update(above, 80, 60_000)).isEqualTo(Change.RESOLVE);
    assertThat(h.firing()).isFalse();
    assertThat(h.update(above, 80, 70_000)).isEqualTo(Change.NONE);
  }

  @Test
  void noHoldResolvesAtTheFirstClearReading() {
    Hysteresis h = new Hysteresis();
    Threshold t = Threshold.below(30, 0.02, 0);
    assertThat(h.update(t, 29, 0)).isEqualTo(Change.FIRE);
    assertThat(h.update(t, 30.5, 1)).isEqualTo(Change.NONE);
    assertThat(h.update(t, 30.6, 2)).isEqualTo(Change.RESOLVE);
  }

  @Test
  void survivesJavaSerializationMidHold() throws Exception {
    Hysteresis h = new Hysteresis();
    h.update(above, 120, 0);
    h.update(above, 80, 10_000);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(h);
    }
    Hysteresis back;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      back = (Hysteresis) in.readObject();
    }
    assertThat(back.update(above, 80, 39_999)).isEqualTo(Change.NONE);
    assertThat(back.update(above, 80, 40_000)).isEqualTo(Change.RESOLVE);
  }
}
