package io.fleetscope.flink.ckpt;

import static io.fleetscope.flink.ckpt.CkptFixtures.TB;
import static io.fleetscope.flink.ckpt.CkptFixtures.done;
import static io.fleetscope.flink.ckpt.CkptFixtures.failed;
import static io.fleetscope.flink.ckpt.CkptFixtures.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import io.fleetscope.avro.CheckpointEvent;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.flink.core.AlertChange;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointSloTrackerTest {
  private final CheckpointSloSettings cfg = CheckpointSloSettings.defaults();

  @Test
  void healthyJobIsCompliantWithZeroBurnAndNoAlert() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    List<AlertChange> changes = new ArrayList<>();
    CheckpointSlo last = null;
    for (int i = 0; i < 48; i++) { // 8 hours, one 1 TB checkpoint of 30 s every 10 minutes
      assertThat(t.onEvent(started("llm", i, i * 600, TB), null).slo()).isNull();
      CheckpointSloTracker.Outcome o = t.onEvent(done("llm", i, i * 600, 30, TB), 86_400.0);
      changes.addAll(o.changes());
      last = o.slo();
    }
    assertThat(changes).isEmpty();
    assertThat(last.getCompliant()).isTrue();
    assertThat(last.getThroughputGbps()).isCloseTo(33.333333, within(1e-6));
    assertThat(last.getDurationS()).isEqualTo(30.0);
    assertThat(last.getSloSeconds()).isEqualTo(60.0);
    assertThat(last.getBurnRate1h()).isZero();
    assertThat(last.getBurnRate5m()).isZero();
    assertThat(last.getBurnRate6h()).isZero();
    // C = 30 s, job MTBF 1 day: Daly's interval
    assertThat(last.getRecommendedIntervalS()).isCloseTo(YoungDaly.daly(30, 86_400), within(1e-6));
  }

  @Test
  void oneSlowCheckpointFiresSlowAndFastBurnThenRecoveryResolvesBoth() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    for (int i = 0; i < 12; i++) {
      assertThat(t.onEvent(done("llm", i, i * 600, 30, TB), null).changes()).isEmpty();
    }
    // step 12 takes 90 s: 1 bad of the 6 checkpoints in the last hour = 16.7% / 1% = 16.7x >= 14.4,
    // and the only one in the last 5 minutes (100x); over 6 h it is 1 of 13 = 7.7x >= 6, and over
    // 30 min 1 of 3 = 33x, so both rules fire.
    CheckpointSloTracker.Outcome bad = t.onEvent(done("llm", 12, 12 * 600, 90, TB), null);
    assertThat(bad.slo().getCompliant()).isFalse();
    assertThat(bad.slo().getBurnRate1h()).isCloseTo(100.0 / 6, within(1e-6));
    assertThat(bad.slo().getBurnRate5m()).isCloseTo(100.0, within(1e-6));
    assertThat(bad.slo().getBurnRate6h()).isCloseTo(100.0 / 13, within(1e-6));
    assertThat(bad.changes()).extracting(AlertChange::alertname, AlertChange::severity, AlertChange::firing)
        .containsExactly(tuple("CheckpointSlow", "warning", true), tuple("CheckpointSloBurn", "critical", true),
            tuple("CheckpointSloBurn", "warning", true));
    assertThat(bad.changes().get(1).labels()).containsEntry("window", "1h/5m").containsEntry("job", "llm");
    assertThat(bad.changes().get(0).description()).contains("step 12").contains("90.0 s");

    CheckpointSloTracker.Outcome good = t.onEvent(done("llm", 13, 13 * 600, 30, TB), null);
    // the fast rule resolves at once (its 5 min window is clean); the slow rule's 30 min window
    // still holds step 12 (finished at 7290 s) until a checkpoint finishes after 9090 s: step 16.
    assertThat(good.changes()).extracting(AlertChange::alertname, AlertChange::firing, c -> c.labels().get("window"))
        .containsExactly(tuple("CheckpointSlow", false, null), tuple("CheckpointSloBurn", false, "1h/5m"));
    for (int i = 14; i < 16; i++) {
      assertThat(t.onEvent(done("llm", i, i * 600, 30, TB), null).changes()).isEmpty();
    }
    assertThat(t.onEvent(done("llm", 16, 16 * 600, 30, TB), null).changes())
        .extracting(AlertChange::alertname, AlertChange::firing, c -> c.labels().get("window"))
        .containsExactly(tuple("CheckpointSloBurn", false, "6h/30m"));
  }

  @Test
  void slowBurnOnlyFiresTheSixHourRule() {
    // a checkpoint every 5 min; 1 in 12 is slow: long windows see 8.3x, the 1h rule needs 14.4x
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    List<AlertChange> changes = new ArrayList<>();
    for (int i = 0; i < 72; i++) {
      double d = (i % 12 == 11) ? 75 : 30;
      changes.addAll(t.onEvent(done("llm", i, i * 300, d, TB), null).changes());
    }
    assertThat(changes).filteredOn(c -> c.alertname().equals("CheckpointSloBurn"))
        .extracting(c -> c.labels().get("window")).containsOnly("6h/30m");
    assertThat(changes).filteredOn(c -> c.alertname().equals("CheckpointSloBurn") && c.firing()).isNotEmpty();
  }

  @Test
  void failedCheckpointIsNotCompliantAndDuplicatesCountOnce() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    CheckpointSloTracker.Outcome f = t.onEvent(failed("llm", 1, 0, 20, TB), null);
    assertThat(f.slo().getCompliant()).isFalse();
    assertThat(f.slo().getThroughputGbps()).isZero();
    assertThat(f.changes()).extracting(AlertChange::alertname).contains("CheckpointSlow");
    assertThat(t.onEvent(failed("llm", 1, 0, 20, TB), null).slo()).as("repeated event").isNull();
    assertThat(t.medianCost()).as("a failed checkpoint is no cost sample").isNull();
  }

  @Test
  void costIsTheMedianOfTheLatestCheckpoints() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    double[] durations = {10, 50, 20, 40, 30, 500};
    for (int i = 0; i < durations.length; i++) {
      t.onEvent(done("llm", i, i * 600, durations[i], TB), null);
    }
    // latest 5: 50, 20, 40, 30, 500 -> median 40
    assertThat(t.medianCost()).isEqualTo(40.0);
  }

  @Test
  void tierOverrideChangesTheSlo() {
    CheckpointSloSettings s = new CheckpointSloSettings(60, java.util.Map.of("s3", 300.0), 0.99, cfg.burnWindows(),
        1.0, 5, 50_000, 3, 168, 600, cfg.interruptingXids(), 10_000, 300L, 0.9, 0.8);
    CheckpointSloTracker t = new CheckpointSloTracker(s);
    CheckpointSlo r = t.onEvent(io.fleetscope.avro.CheckpointEvent.newBuilder(done("llm", 1, 0, 200, TB))
        .setTier("s3").build(), null).slo();
    assertThat(r.getSloSeconds()).isEqualTo(300.0);
    assertThat(r.getCompliant()).isTrue();
  }

  @Test
  void hungCheckpointFiresOnceTheCheckpointStreamHasMovedPastItsCheckTime() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    CheckpointStreamClock clock = new CheckpointStreamClock();
    t.onEvent(done("llm", 1, 0, 30, TB), null);
    // step 2 starts at 600 s and never finishes; SLO deadline 660 s lies in the tick [660, 670):
    // checked from the end of the next tick, 679.999 s
    clock.seen(CheckpointArrivals.seen(started("llm", 2, 600, TB)));
    long checkAt = t.onStart(started("llm", 2, 600, TB), 0);
    assertThat(checkAt).isEqualTo(CkptFixtures.t(680) - 1);
    assertThat(t.onTime("c1", "llm", checkAt - 1, clock)).isEmpty();
    assertThat(t.onTime("c1", "llm", checkAt + 60_000, clock))
        .as("the checkpoint stream has shown nothing past the check time: it may only lag").isEmpty();
    // another node's checkpoint event at 700 s says nothing about n1's, whose partition may be behind
    clock.seen(CheckpointArrivals.seen(CheckpointEvent.newBuilder(started("other", 7, 700, TB)).setNode("n2").build()));
    assertThat(t.onTime("c1", "llm", checkAt + 60_000, clock)).isEmpty();
    // another job's checkpoint event at 700 s from n1 reaches the analytic: n1's stream vouches for 700 s
    clock.seen(CheckpointArrivals.seen(started("other", 7, 700, TB)));
    List<CheckpointSloTracker.TimedChange> fire = t.onTime("c1", "llm", checkAt + 60_000, clock);
    assertThat(fire).singleElement().satisfies(c -> {
      assertThat(c.ts()).as("as of its check time").isEqualTo(checkAt);
      assertThat(c.change().alertname()).isEqualTo("CheckpointSlow");
      assertThat(c.change().firing()).isTrue();
      assertThat(c.change().description()).contains("step 2 started 80 s ago and has not finished")
          .contains("fleet.ckpt.v1 has moved past its deadline");
    });
    assertThat(t.onTime("c1", "llm", checkAt + 120_000, clock)).as("once").isEmpty();
    // step 3 completes within the SLO: CheckpointSlow resolves
    assertThat(t.onEvent(done("llm", 3, 1200, 30, TB), null).changes())
        .extracting(AlertChange::alertname, AlertChange::firing).containsExactly(tuple("CheckpointSlow", false));
  }

  @Test
  void withNothingMoreOnTheCheckpointStreamTheOtherInputsDecideAfterTheGrace() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    CheckpointStreamClock clock = new CheckpointStreamClock();
    clock.seen(CheckpointArrivals.seen(started("llm", 2, 600, TB)));
    long checkAt = t.onStart(started("llm", 2, 600, TB), 0);
    long fallbackAt = checkAt + cfg.overdueGraceS() * 1000;
    assertThat(t.onTime("c1", "llm", fallbackAt - 1, clock)).isEmpty();
    assertThat(t.onTime("c1", "llm", fallbackAt, clock)).singleElement().satisfies(c -> {
      assertThat(c.ts()).isEqualTo(fallbackAt);
      assertThat(c.change().value()).isCloseTo(380.0, within(0.01));
      assertThat(c.change().description()).contains("after the 300 s grace");
    });
  }

  @Test
  void checkpointWhoseCompletionArrivedInTimeIsNeverOverdueHoweverLateItIsProcessed() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    CheckpointStreamClock clock = new CheckpointStreamClock();
    long checkAt = t.onStart(started("llm", 1, 0, TB), 0);
    clock.seen(CheckpointArrivals.seen(done("llm", 1, 0, 59.9, TB)));
    clock.seen(CheckpointArrivals.seen(started("other", 5, 3600, TB)));
    assertThat(t.onTime("c1", "llm", checkAt + 3_000_000, clock)).isEmpty();
    assertThat(t.onEvent(done("llm", 1, 0, 59.9, TB), null).changes()).isEmpty();
    assertThat(t.openCount()).isZero();
  }

  @Test
  void completionThatArrivesAfterTheCheckTimeMakesItOverdueAsOfTheCheckTime() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    CheckpointStreamClock clock = new CheckpointStreamClock();
    long checkAt = t.onStart(started("llm", 1, 0, TB), 0);
    clock.seen(CheckpointArrivals.seen(done("llm", 1, 0, 150, TB)));
    assertThat(t.onTime("c1", "llm", checkAt, clock)).singleElement()
        .satisfies(c -> assertThat(c.ts()).isEqualTo(checkAt));
    assertThat(t.onEvent(done("llm", 1, 0, 150, TB), null).changes())
        .filteredOn(c -> c.alertname().equals("CheckpointSlow")).as("already firing").isEmpty();
  }

  @Test
  void durationsHoveringAtTheSloAreOneAlert() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    List<AlertChange> changes = new ArrayList<>();
    int crossings = 0;
    boolean above = false;
    for (int i = 0; i < 40; i++) {
      double d = 60 + ((i * 7) % 5 - 2) * 1.5; // 57 .. 63 s around the 60 s SLO
      crossings += (d > 60) != above ? 1 : 0;
      above = d > 60;
      changes.addAll(t.onEvent(done("llm", i, i * 600, d, TB), null).changes());
    }
    assertThat(crossings).as("the duration crosses the SLO again and again").isGreaterThan(10);
    assertThat(changes).filteredOn(c -> c.alertname().equals("CheckpointSlow"))
        .extracting(AlertChange::firing).containsExactly(true);
    // a checkpoint clearly within (<= 54 s) resolves it
    assertThat(t.onEvent(done("llm", 40, 40 * 600, 50, TB), null).changes())
        .filteredOn(c -> c.alertname().equals("CheckpointSlow"))
        .extracting(AlertChange::firing).containsExactly(false);
  }

  @Test
  void burnRateHoveringAtItsThresholdIsOneAlert() {
    // one rule, 1 h / 5 min at 10x (10 % of the checkpoints bad with a 99 % target, SLO 3 s); a
    // checkpoint every 5 s, about every tenth one slow: once the rule fires, its burn rates hover
    // around 10x (8.3x to 11.7x), below the threshold again and again but never clearly (< 8x)
    CheckpointSloSettings one = new CheckpointSloSettings(3, java.util.Map.of(), 0.99,
        List.of(new CheckpointSloSettings.BurnWindow("1h/5m", 3600, 300, 10.0, "critical")),
        1.0, 5, 50_000, 3, 168, 600, cfg.interruptingXids(), 10_000, 300L, 0.9, 0.8);
    CheckpointSloTracker t = new CheckpointSloTracker(one);
    List<AlertChange> burn = new ArrayList<>();
    int dips = 0;
    for (int i = 0; i < 1500; i++) {
      boolean slow = (i % 10 == 9 && i % 70 != 69) || i % 37 == 0;
      CheckpointSloTracker.Outcome o = t.onEvent(done("llm", i, i * 5, slow ? 4 : 2, TB), null);
      double lower = Math.min(o.slo().getBurnRate1h(), o.slo().getBurnRate5m());
      boolean wasFiring = !burn.isEmpty() && burn.get(burn.size() - 1).firing();
      if (wasFiring && lower < 10.0) {
        dips++;
      }
      o.changes().stream().filter(c -> c.alertname().equals("CheckpointSloBurn")).forEach(burn::add);
    }
    assertThat(dips).as("while firing, the burn rate falls below the threshold again and again").isGreaterThan(20);
    assertThat(burn).extracting(AlertChange::firing).containsExactly(true);
  }

  @Test
  void endedJobBecomesIdleAfterTheLongestWindowUnlessFiring() {
    CheckpointSloTracker t = new CheckpointSloTracker(cfg);
    t.onEvent(done("llm", 1, 0, 30, TB), null);
    assertThat(t.idleAt(CkptFixtures.t(30 + 6 * 3600))).isFalse();
    assertThat(t.idleAt(CkptFixtures.t(31 + 6 * 3600))).isTrue();
    CheckpointSloTracker slow = new CheckpointSloTracker(cfg);
    slow.onEvent(done("llm", 1, 0, 90, TB), null);
    assertThat(slow.idleAt(CkptFixtures.t(100 * 3600))).as("CheckpointSlow still firing").isFalse();
  }
}
