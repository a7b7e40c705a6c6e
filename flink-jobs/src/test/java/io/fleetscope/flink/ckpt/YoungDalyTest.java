package io.fleetscope.flink.ckpt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class YoungDalyTest {
  @Test
  void youngAndDalyForAOneMinuteCheckpointAndOneDayMtbf() {
    // hand-computed: sqrt(2*60*86400) = 3219.938; Daly = 3219.938 * (1 + sqrt(r)/3 + r/9) - 60 with r = 60/172800
    assertThat(YoungDaly.young(60, 86_400)).isCloseTo(3219.938, within(1e-3));
    assertThat(YoungDaly.daly(60, 86_400)).isCloseTo(3180.062, within(1e-3));
  }

  @Test
  void dalyIsShorterThanYoungWhenCostIsLarge() {
    assertThat(YoungDaly.young(600, 3600)).isCloseTo(2078.461, within(1e-3));
    assertThat(YoungDaly.daly(600, 3600)).isCloseTo(1697.706, within(1e-3));
  }

  @Test
  void costOfTwoMtbfOrMoreMeansCheckpointEveryMtbf() {
    assertThat(YoungDaly.daly(7200, 3600)).isEqualTo(3600.0);
  }

  @Test
  void nonPositiveInputsAreRefused() {
    assertThatThrownBy(() -> YoungDaly.daly(0, 10)).hasMessageContaining("must be > 0");
  }
}
