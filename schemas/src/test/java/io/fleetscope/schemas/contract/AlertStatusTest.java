package io.fleetscope.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AlertStatusTest {

  @Test
  void firingAndResolvedAreTheOnlyValidStatuses() {
    assertThat(AlertStatus.isValid("firing")).isTrue();
    assertThat(AlertStatus.isValid("resolved")).isTrue();
    assertThat(AlertStatus.isValid("FIRING")).isFalse();
    assertThat(AlertStatus.isValid("changed")).isFalse();
    assertThat(AlertStatus.isValid(null)).isFalse();
  }

  @Test
  void tellsFiringFromResolved() {
    assertThat(AlertStatus.isFiring(AlertStatus.FIRING)).isTrue();
    assertThat(AlertStatus.isFiring(AlertStatus.RESOLVED)).isFalse();
    assertThat(AlertStatus.isResolved(AlertStatus.RESOLVED)).isTrue();
    assertThat(AlertStatus.isResolved(null)).isFalse();
  }
}
