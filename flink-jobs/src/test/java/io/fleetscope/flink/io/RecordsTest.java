package io.fleetscope.flink.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecordsTest {
  @ParameterizedTest(name = "\"{0}\" active={1}")
  @CsvSource(nullValues = "NULL", value = {
      "'4: ACTIVE', true", "ACTIVE, true", "Active, true", "'port active', true",
      "'1: DOWN', false", "'2: INIT', false", "'3: ARMED', false", "'', false", "ACTIV, false", "NULL, true"})
  void portStateIsActiveWhenItNamesActiveInAnyCase(String state, boolean active) {
    assertThat(Records.portActive(state)).isEqualTo(active);
  }
}
