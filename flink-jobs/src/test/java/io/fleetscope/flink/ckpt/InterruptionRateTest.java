package io.fleetscope.flink.ckpt;

import static io.fleetscope.flink.ckpt.CkptFixtures.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class InterruptionRateTest {
  private final CheckpointSloSettings cfg = CheckpointSloSettings.defaults();

  @Test
  void configuredMtbfUntilEnoughInterruptionsThenObserved() {
    InterruptionRate r = new InterruptionRate(cfg);
    r.observe(t(0));
    assertThat(r.mtbfPerGpuS(1000)).isEqualTo(50_000 * 3600.0);
    assertThat(r.interruption("n1", t(3600))).isTrue();
    assertThat(r.interruption("n1", t(3700))).as("same node within 10 min: same incident").isFalse();
    assertThat(r.interruption("n2", t(7200))).isTrue();
    assertThat(r.observedRateInUse()).isFalse();
    assertThat(r.interruption("n3", t(10_800))).isTrue();
    r.observe(t(36_000)); // 10 hours observed
    // 3 interruptions in 10 h over 1000 GPUs: 10,000 GPU-hours / 3 per GPU
    assertThat(r.observedRateInUse()).isTrue();
    assertThat(r.mtbfPerGpuS(1000)).isCloseTo(1000 * 36_000.0 / 3, within(1e-6));
    // a 512-GPU job fails 512 times as often as one GPU
    assertThat(r.jobMtbfS(1000, 512)).isCloseTo(1000 * 36_000.0 / 3 / 512, within(1e-6));
  }

  @Test
  void interruptionsLeaveTheWindow() {
    InterruptionRate r = new InterruptionRate(cfg);
    r.interruption("n1", t(0));
    r.interruption("n2", t(1));
    r.interruption("n3", t(2));
    assertThat(r.count()).isEqualTo(3);
    r.observe(t(169 * 3600));
    assertThat(r.count()).isZero();
    assertThat(r.observedRateInUse()).isFalse();
  }
}
