package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.sink.maintenance.RollupMaintainer;
import io.fleetscope.sink.write.Invalidation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which ranges a batch logs for the rollups, and how the maintainer routes them. */
class InvalidationTest {
  private static final long T = 1_780_000_000_000L;

  @Test
  void anOnTimeBatchIsOneRangeOverEveryNode() {
    assertThat(Invalidation.of(new long[] {T + 3_000, T, T + 1_000}, new String[] {"a", "b", "c"}))
        .containsExactly(new Invalidation(T, T + 3_000, null));
  }

  @Test
  void stragglersGetRangesOfTheirOwnPerNode() {
    long[] ts = {T + 120_000, T + 121_000, T, T + 5_000, T + 2_000, T + 119_000};
    String[] nodes = {"a", "b", "n7", "n3", "n7", "c"};
    assertThat(Invalidation.of(ts, nodes)).containsExactly(
        new Invalidation(T + 119_000, T + 121_000, null),
        new Invalidation(T + 5_000, T + 5_000, "n3"),
        new Invalidation(T, T + 2_000, "n7"));
  }

  @Test
  void manyOldRowsOrRowsWithoutANodeStayOneRange() {
    int n = Invalidation.MAX_STRAGGLERS + 1;
    long[] ts = new long[n + 1];
    String[] nodes = new String[n + 1];
    for (int i = 0; i < n; i++) {
      ts[i] = T + i;
      nodes[i] = "n" + i;
    }
    ts[n] = T + 600_000;
    nodes[n] = "a";
    assertThat(Invalidation.of(ts, nodes)).containsExactly(new Invalidation(T, T + 600_000, null));
    assertThat(Invalidation.of(new long[] {T, T + 600_000}, null)).containsExactly(new Invalidation(T, T + 600_000, null));
    assertThat(Invalidation.of(new long[0], null)).isEmpty();
  }

  @Test
  void theMaintainerRefreshesNodeRangesPerNodeAndHoldsTheirOpenMinuteToo() {
    Instant now = Instant.parse("2026-05-31T10:07:30Z");
    RollupMaintainer.Split s = RollupMaintainer.split(List.of(
        new RollupMaintainer.Logged(range("10:06:00", "10:07:25"), now, null),
        new RollupMaintainer.Logged(range("10:04:10", "10:04:12"), now, "n7"),
        new RollupMaintainer.Logged(range("10:03:00", "10:03:01"), now, "n7"),
        new RollupMaintainer.Logged(range("10:05:00", "10:05:00"), now, "n3")), now);
    assertThat(s.due()).containsExactly(range("10:06:00", "10:07:00"));
    assertThat(s.dueByNode()).isEqualTo(Map.of(
        "n7", List.of(range("10:04:10", "10:04:12"), range("10:03:00", "10:03:01")),
        "n3", List.of(range("10:05:00", "10:05:00"))));
    assertThat(s.held()).containsExactly(new RollupMaintainer.Logged(range("10:07:00", "10:07:25"), now, null));
  }

  private static RollupMaintainer.Range range(String from, String to) {
    return new RollupMaintainer.Range(Instant.parse("2026-05-31T" + from + "Z"), Instant.parse("2026-05-31T" + to + "Z"));
  }
}
