package io.fleetscope.flink.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RobustZTest {
  @Test
  void medianAndMadIgnoreTheOutlier() {
    // median 12, |deviations| 2,1,0,1,88 -> MAD 1; z(100) = 88 / 1.4826
    RobustZ rz = RobustZ.of(List.of(10.0, 11.0, 12.0, 13.0, 100.0), 0.001);
    assertThat(rz.median()).isEqualTo(12.0);
    assertThat(rz.z(100)).isCloseTo(59.355, within(1e-3));
    assertThat(rz.z(12)).isZero();
    assertThat(rz.z(10)).isCloseTo(-2 / 1.4826, within(1e-9));
  }

  @Test
  void identicalPeersUseTheMadFloor() {
    RobustZ rz = RobustZ.of(List.of(50.0, 50.0, 50.0, 50.0), 2.0);
    assertThat(rz.z(53)).isCloseTo(3 / (1.4826 * 2), within(1e-9));
  }

  @Test
  void evenCountMedianIsTheMean() {
    assertThat(RobustZ.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
  }

  @Test
  void emptyIsRefused() {
    assertThatThrownBy(() -> RobustZ.of(List.of(), 1)).hasMessageContaining("at least one");
  }
}
