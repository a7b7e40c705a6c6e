package io.fleetscope.schemas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationSyntaxTest {

  @Test
  void readsWholeNumbersWithAUnitLargestFirst() {
    assertThat(DurationSyntax.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationSyntax.parse("5s")).isEqualTo(Duration.ofSeconds(5));
    assertThat(DurationSyntax.parse("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(DurationSyntax.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(DurationSyntax.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(DurationSyntax.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(DurationSyntax.parse("2h5m3s250ms")).isEqualTo(Duration.ofMillis(7_503_250));
    assertThat(DurationSyntax.parse("0s")).isZero();
    assertThat(DurationSyntax.parse("90s")).isEqualTo(Duration.ofSeconds(90));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "5", "5000", "1.5s", "PT5M", "5 s", " 5s", "5sec", "5S", "30s1m", "1m1m", "ms", "-5s", "1d"})
  void refusesAnythingElseShowingTheSyntax(String text) {
    assertThatThrownBy(() -> DurationSyntax.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'" + text + "' is not a duration: write a whole number and a unit (h, m, s, ms), largest first,"
            + " e.g. 500ms, 5s, 10m, 1h or 1m30s");
  }

  @Test
  void refusesNull() {
    assertThatThrownBy(() -> DurationSyntax.parse(null)).hasMessageContaining("is not a duration");
  }

  @Test
  void formatsTheShortestTextThatReadsBack() {
    assertThat(DurationSyntax.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
    assertThat(DurationSyntax.format(Duration.ofMillis(500))).isEqualTo("500ms");
    assertThat(DurationSyntax.format(Duration.ofHours(2))).isEqualTo("2h");
    assertThat(DurationSyntax.format(Duration.ZERO)).isEqualTo("0s");
    for (long ms : new long[] {1, 999, 1000, 61_001, 3_600_000, 86_400_000, 7_503_250}) {
      Duration d = Duration.ofMillis(ms);
      assertThat(DurationSyntax.parse(DurationSyntax.format(d))).isEqualTo(d);
    }
  }
}
