package io.fleetscope.loadgen.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.loadgen.topology.SiteTopology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The heat a job's GPUs take in per second is the phases' exact share of that second. Read at whole seconds, a step
 * of 5.03 s showed its compute phase in 3 or 4 of every 5 seconds for minutes at a time: a slow beat of the mean
 * power (several degrees, minutes long) that a real GPU, integrating its power, does not have. The healthy soak's 10 s
 * samples read that beat as a rise heading for slowdown.
 */
class JobStateHeatTest {

  @Test
  void everyMinuteHeatsWithTheJobsMeanPowerWhateverItsStepPeriod() {
    for (long seed = 0; seed < 200; seed++) {
      JobState job = new JobState(new SiteTopology.Job("job-0", List.of("n0")), 8, Rng.of(seed, "job"), 0, 300_000);
      double mean = job.averagePowerFraction();
      double worstSampled = 0;
      for (long minute = 0; minute < 60; minute++) {
        double heat = 0;
        double sampled = 0;
        for (long s = minute * 60; s < minute * 60 + 60; s++) {
          heat += job.meanPowerFractionOver(s * 1000, (s + 1) * 1000, 0);
          sampled += job.phaseAt((s + 1) * 1000, 0).powerFraction;
        }
        assertThat(heat / 60).as("seed %d (step %.3f s) minute %d", seed, job.stepPeriodS, minute)
            .isCloseTo(mean, org.assertj.core.data.Offset.offset(0.015));
        worstSampled = Math.max(worstSampled, Math.abs(sampled / 60 - mean));
      }
      if (Math.abs(job.stepPeriodS - 5) < 0.05) { // the aliasing the phase read at whole seconds had
        assertThat(worstSampled).as("seed %d step %.3f s", seed, job.stepPeriodS).isGreaterThan(0.03);
      }
    }
  }

  @Test
  void aCheckpointCountsForItsShareOfTheSecond() {
    JobState job = new JobState(new SiteTopology.Job("job-0", List.of("n0")), 8, Rng.of(1, "job"), 0, 300_000);
    job.ckptStartTs = 10_500;
    job.ckptEndTs = 40_300;
    assertThat(job.meanPowerFractionOver(20_000, 21_000, 0)).isEqualTo(Phase.CHECKPOINT.powerFraction);
    double half = job.meanPowerFractionOver(10_000, 11_000, 0);
    assertThat(half).isGreaterThan(Phase.CHECKPOINT.powerFraction).isLessThan(Phase.COMPUTE.powerFraction);
  }
}
