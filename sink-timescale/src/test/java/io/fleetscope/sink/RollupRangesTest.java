package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.maintenance.RetentionJob;
import io.fleetscope.sink.maintenance.RollupMaintainer;
import io.fleetscope.sink.query.NamedQuery;
import io.fleetscope.sink.query.QueryParam;
import io.fleetscope.sink.query.SreQueries;
import io.fleetscope.sink.write.Column;
import io.fleetscope.sink.write.ColumnType;
import io.fleetscope.sink.write.RowEncoder;
import io.fleetscope.sink.write.Tables;
import java.io.File;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** Pure logic of the sink, no broker or database. */
class RollupRangesTest {
  @Test
  void hourRangesMergeAndReachTheNextSamples() {
    List<RollupMaintainer.Range> r = RollupMaintainer.hourRanges(List.of(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:05:00Z"), Instant.parse("2026-05-31T10:55:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T11:10:00Z"), Instant.parse("2026-05-31T11:20:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T15:00:00Z"), Instant.parse("2026-05-31T15:01:00Z"))));
    assertThat(r).containsExactly(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:00:00Z"), Instant.parse("2026-05-31T12:00:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T15:00:00Z"), Instant.parse("2026-05-31T16:00:00Z")));
  }

  @Test
  void theLiveHourIsCutOffUntilItIsComplete() {
    List<RollupMaintainer.Range> hours = List.of(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T08:00:00Z"), Instant.parse("2026-05-31T09:00:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T09:00:00Z"), Instant.parse("2026-05-31T11:00:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:00:00Z"), Instant.parse("2026-05-31T11:00:00Z")));
    // rows are live in minute 10:07: the hour 10:00 is still filling
    assertThat(RollupMaintainer.completeHours(hours, Instant.parse("2026-05-31T10:07:00Z"))).containsExactly(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T08:00:00Z"), Instant.parse("2026-05-31T09:00:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T09:00:00Z"), Instant.parse("2026-05-31T10:00:00Z")));
    // the first minute of the next hour is live: the hour 10:00 is complete
    assertThat(RollupMaintainer.completeHours(hours, Instant.parse("2026-05-31T11:00:00Z"))).isEqualTo(hours);
    // nothing live (a backfill, a source gone quiet): every hour as logged
    assertThat(RollupMaintainer.completeHours(hours, null)).isEqualTo(hours);
  }

  private static RollupMaintainer.Logged logged(String from, String to) {
    return new RollupMaintainer.Logged(new RollupMaintainer.Range(Instant.parse(from), Instant.parse(to)),
        Instant.parse("2026-05-31T10:07:30Z"), null);
  }

  @Test
  void liveRowsHoldTheirOpenMinuteBackAndEverythingBeforeIsDue() {
    RollupMaintainer.Split s = RollupMaintainer.split(List.of(
        logged("2026-05-31T10:05:50Z", "2026-05-31T10:06:40Z"),
        logged("2026-05-31T10:06:40Z", "2026-05-31T10:07:20Z"),
        logged("2026-05-31T10:07:05Z", "2026-05-31T10:07:25Z")), Instant.parse("2026-05-31T10:07:30Z"));
    assertThat(s.due()).containsExactly(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:05:50Z"), Instant.parse("2026-05-31T10:06:40Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:06:40Z"), Instant.parse("2026-05-31T10:07:00Z")));
    assertThat(s.held()).containsExactly(
        logged("2026-05-31T10:07:00Z", "2026-05-31T10:07:20Z"),
        logged("2026-05-31T10:07:05Z", "2026-05-31T10:07:25Z"));
  }

  @Test
  void rowsOlderThanTheSettleTimeAreAllDue() {
    RollupMaintainer.Split s = RollupMaintainer.split(List.of(
        logged("2026-05-31T10:05:50Z", "2026-05-31T10:07:25Z")), Instant.parse("2026-05-31T10:09:26Z"));
    assertThat(s.due()).containsExactly(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:05:50Z"), Instant.parse("2026-05-31T10:07:25Z")));
    assertThat(s.held()).isEmpty();
  }

  @Test
  void minuteRangesCoverTheWrittenMinutesAndTheDeltasReach() {
    List<RollupMaintainer.Range> r = RollupMaintainer.minuteRanges(List.of(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:05:12Z"), Instant.parse("2026-05-31T10:06:30Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:10:00Z"), Instant.parse("2026-05-31T10:11:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T15:00:00Z"), Instant.parse("2026-05-31T15:00:01Z"))));
    // [10:05, 10:17) and [10:10, 10:22) overlap; a sample changes the next one's delta up to 10 minutes later
    assertThat(r).containsExactly(
        new RollupMaintainer.Range(Instant.parse("2026-05-31T10:05:00Z"), Instant.parse("2026-05-31T10:22:00Z")),
        new RollupMaintainer.Range(Instant.parse("2026-05-31T15:00:00Z"), Instant.parse("2026-05-31T15:11:00Z")));
  }
}
