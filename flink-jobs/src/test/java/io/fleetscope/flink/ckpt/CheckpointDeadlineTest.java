package io.fleetscope.flink.ckpt;

import static io.fleetscope.flink.ckpt.CheckpointDeadline.Verdict.IN_TIME;
import static io.fleetscope.flink.ckpt.CheckpointDeadline.Verdict.OVERDUE;
import static io.fleetscope.flink.ckpt.CheckpointDeadline.Verdict.OVERDUE_BY_FALLBACK;
import static io.fleetscope.flink.ckpt.CheckpointDeadline.Verdict.UNDECIDED;
import static io.fleetscope.flink.ckpt.CkptFixtures.t;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CheckpointDeadlineTest {
  private final CheckpointSloSettings cfg = CheckpointSloSettings.defaults();
  // started at 600 s, SLO 60 s: deadline 660 s, in the tick [660, 670); checked from 679.999 s;
  // the fallback 300 s later
  private final CheckpointDeadline d = CheckpointDeadline.of(cfg, t(600), "lustre", 0);
  private final long none = Long.MIN_VALUE;

  @Test
  void timesFollowTheSloTheTickAndTheGrace() {
    assertThat(d.deadline()).isEqualTo(t(660));
    assertThat(d.checkAt()).isEqualTo(t(680) - 1);
    assertThat(d.fallbackAt()).isEqualTo(t(980) - 1);
    assertThat(CheckpointDeadline.of(cfg, t(600), "lustre", 2000).checkAt()).as("allowed lateness").isEqualTo(t(682) - 1);
  }

  @Test
  void nothingIsDecidedBeforeTheCheckTime() {
    assertThat(d.judge(d.checkAt() - 1, t(700), t(5000))).isEqualTo(UNDECIDED);
  }

  @Test
  void aCompletionThatArrivedDecidesWhateverTheClocks() {
    assertThat(d.judge(t(5000), t(659), none)).isEqualTo(IN_TIME);
    assertThat(d.judge(t(5000), d.checkAt(), none)).as("finished by the check time").isEqualTo(IN_TIME);
    assertThat(d.judge(d.checkAt(), d.checkAt() + 1, none)).isEqualTo(OVERDUE);
  }

  @Test
  void theCheckpointStreamVouchesOnlyOnceItHasShownTheCheckTime() {
    assertThat(d.judge(t(900), null, d.checkAt() - 1)).as("it may only lag").isEqualTo(UNDECIDED);
    assertThat(d.judge(t(900), null, d.checkAt())).isEqualTo(OVERDUE);
    assertThat(d.overdueSince(OVERDUE)).isEqualTo(d.checkAt());
  }

  @Test
  void withoutAnythingOnTheCheckpointStreamTheOtherInputsDecideAfterTheGrace() {
    assertThat(d.judge(d.fallbackAt() - 1, null, t(600))).isEqualTo(UNDECIDED);
    assertThat(d.judge(d.fallbackAt(), null, t(600))).isEqualTo(OVERDUE_BY_FALLBACK);
    assertThat(d.overdueSince(OVERDUE_BY_FALLBACK)).isEqualTo(d.fallbackAt());
  }
}
