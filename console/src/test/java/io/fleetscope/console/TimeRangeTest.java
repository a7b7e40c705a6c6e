package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimeRangeTest {
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  @Test
  void lastOrFromToOrTheLastHour() {
    assertThat(TimeRange.parse(Map.of(), NOW)).isEqualTo(new TimeRange(NOW.minusSeconds(3600), NOW));
    assertThat(TimeRange.parse(Map.of("last", "15m"), NOW).span()).isEqualTo(Duration.ofMinutes(15));
    assertThat(TimeRange.parse(Map.of("last", "7d"), NOW).span()).isEqualTo(Duration.ofDays(7));
    assertThat(TimeRange.parse(Map.of("from", "2026-03-01T10:00:00Z", "to", "2026-03-01T11:00:00Z"), NOW).from())
        .isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
    assertThat(TimeRange.parse(Map.of("to", "2026-03-01T11:00:00Z"), NOW).from()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
  }

  @Test
  void theSourceAndBucketFollowTheSpanSoASeriesStaysNear360Points() {
    assertThat(TimeRange.parse(Map.of("last", "15m"), NOW).resolution()).isEqualTo(TimeRange.Resolution.RAW);
    assertThat(TimeRange.parse(Map.of("last", "15m"), NOW).bucketSeconds()).isEqualTo(3);
    assertThat(TimeRange.parse(Map.of("last", "1h"), NOW).bucketSeconds()).isEqualTo(10);
    assertThat(TimeRange.parse(Map.of("last", "6h"), NOW).resolution()).isEqualTo(TimeRange.Resolution.RAW);
    assertThat(TimeRange.parse(Map.of("last", "7h"), NOW).resolution()).isEqualTo(TimeRange.Resolution.MINUTE);
    assertThat(TimeRange.parse(Map.of("last", "24h"), NOW).bucketSeconds()).isEqualTo(240);
    assertThat(TimeRange.parse(Map.of("last", "4d"), NOW).resolution()).isEqualTo(TimeRange.Resolution.MINUTE);
    assertThat(TimeRange.parse(Map.of("last", "5d"), NOW).resolution()).isEqualTo(TimeRange.Resolution.HOUR);
    assertThat(TimeRange.parse(Map.of("last", "5d"), NOW).bucketSeconds()).isEqualTo(3600);
    assertThat(TimeRange.parse(Map.of("last", "30d"), NOW).bucketSeconds()).isEqualTo(7200);
    assertThat(TimeRange.parse(Map.of("last", "31d"), NOW).bucketSeconds()).as("3 h: 248 points").isEqualTo(10800);
    assertThat(TimeRange.parse(Map.of("last", "90s"), NOW).bucketSeconds()).isEqualTo(1);
  }

  @Test
  void badRangesAreRefusedWithTheReason() {
    assertThatThrownBy(() -> TimeRange.parse(Map.of("last", "32d"), NOW)).hasMessage("the range is at most 31 days, got 32 days");
    assertThatThrownBy(() -> TimeRange.parse(Map.of("last", "1w"), NOW)).hasMessageStartingWith("last must be a whole number and a unit");
    assertThatThrownBy(() -> TimeRange.parse(Map.of("last", "-1h"), NOW)).hasMessageStartingWith("last must be");
    assertThatThrownBy(() -> TimeRange.parse(Map.of("last", "0m"), NOW)).hasMessageStartingWith("last must be");
    assertThatThrownBy(() -> TimeRange.parse(Map.of("from", "2026-03-01T12:00:00Z", "to", "2026-03-01T12:00:00Z"), NOW))
        .hasMessageStartingWith("from must be before to");
    assertThatThrownBy(() -> TimeRange.parse(Map.of("from", "2026-03-01"), NOW)).hasMessageStartingWith("from must be an ISO-8601 time");
    assertThatThrownBy(() -> TimeRange.parse(Map.of("last", "1h", "to", "2026-03-01T12:00:00Z"), NOW))
        .hasMessage("give either last or from/to, not both");
    assertThatThrownBy(() -> TimeRange.parse(Map.of("from", "x".repeat(5000)), NOW)).hasMessageContaining("...'")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
  }
}
