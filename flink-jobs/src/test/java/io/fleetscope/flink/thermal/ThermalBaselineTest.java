package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.thermal.Samples.h100;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.AlertChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The runaway signal from a GPU's own thermal model, on a first-order GPU ({@link FirstOrderGpu}: tau 20 s, 0.3 C
 * noise, whole-degree readings, training phases of 6 s at 1.12x / 0.76x of the mean power, a checkpoint of 30 s at a
 * quarter of the power every 300 s) whose samples carry the energy counter, sampled every 10 s (the agents' default)
 * or every second. Slowdown 87 C. Lead as the bench counts it: the first firing to the first sample at or above
 * slowdown.
 */
class ThermalBaselineTest {
  private static final double SLOWDOWN = 87;
  private static final double LOAD_W = 540;
  private static final double IDLE_W = 70;
  private final Map<String, String> labels = Map.of("cluster", "c1", "node", "n1", "gpu", "0");

  /** The first firing's second, the first sample at or above slowdown, every change, the largest excess seen. */
  record Run(Integer firstFiringS, Integer slowdownSampleS, List<AlertChange> changes, double maxExcessC) {
    Integer leadS() {
      return firstFiringS == null || slowdownSampleS == null ? null : slowdownSampleS - firstFiringS;
    }

    long firings() {
      return changes.stream().filter(c -> c.firing() && c.alertname().equals("GpuThermalThrottleRisk")).count();
    }
  }

  static FirstOrderGpu training(long seed, double steadyC) {
    FirstOrderGpu gpu = new FirstOrderGpu(seed, steadyC);
    gpu.phases = true;
    gpu.wholeDegrees = true;
    gpu.energyCounter = true;
    gpu.coolantC = t -> steadyC - 0.052 * LOAD_W;
    gpu.powerW = t -> (t % 300) >= 270 ? 0.25 * LOAD_W / 1.12 : LOAD_W;
    return gpu;
  }

  static CoolingContext cooling(double supplyC) {
    return new CoolingContext("loop-a", supplyC, 40.0, 120.0, 30.0, 9.0, 15.0);
  }

  private Run run(FirstOrderGpu gpu, int seconds, int everyS, DoubleUnaryOperator supply) {
    return run(gpu, seconds, everyS, supply, s -> s);
  }

  private Run run(FirstOrderGpu gpu, int seconds, int everyS, DoubleUnaryOperator supply,
      java.util.function.UnaryOperator<GpuSample> agent) {
    GpuThermalMonitor m = new GpuThermalMonitor(new ThermalRiskModel(ThermalRiskSettings.defaults()));
    List<AlertChange> changes = new ArrayList<>();
    Integer first = null;
    Integer slowdown = null;
    double maxExcess = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < seconds; i++) {
      GpuSample.Builder b = gpu.next();
      if (gpu.second() % everyS != 0) {
        continue;
      }
      GpuSample s = agent.apply(b.build());
      if (s == null) {
        continue;
      }
      if (slowdown == null && s.getTempC() >= SLOWDOWN) {
        slowdown = gpu.second();
      }
      GpuThermalMonitor.Outcome o = m.onSample(s, h100(), cooling(supply.applyAsDouble(gpu.second())), labels);
      if (o.assessment().resistanceExcessC() != null) {
        maxExcess = Math.max(maxExcess, o.assessment().resistanceExcessC());
      }
      for (AlertChange c : o.changes()) {
        changes.add(c);
        if (first == null && c.firing() && c.alertname().equals("GpuThermalThrottleRisk")) {
          first = gpu.second();
        }
      }
    }
    return new Run(first, slowdown, changes, maxExcess);
  }

  /**
   * Half an hour of training at 62 C, then the cold plate's resistance grows by its healthy value every minute
   * (loadgen's {@code thermal_runaway} at {@code r_growth_per_min: 1.0}): the GPU reaches 87 C 73 s after the fault.
   * It runs 3 C above its model (3.6 C expected) 20 s after the fault and 7 C 30 s after: at 10 s samples the
   * warning, held over two samples ({@code hold_s}), comes with the third sample, 50 s before the first one at
   * slowdown (at +80 s); at 1 s samples 43-50 s before it (+73 s; the trajectory alone calls this GPU 53 s ahead
   * without the energy counter, ThermalTrajectoryTest). Asserted as measured, so that a regression shows: short of
   * 60 s for a GPU this fast (loadgen's scenario reaches slowdown about 100 s after the fault).
   */
  @ParameterizedTest(name = "every {0} s, seed {1}")
  @CsvSource({"10,1,50", "10,2,50", "10,3,50", "1,1,43"})
  void aRunawayIsCalledBeforeSlowdown(int everyS, long seed, int leadS) {
    FirstOrderGpu gpu = training(seed, 62);
    gpu.powerW = t -> (t % 300) >= 120 && (t % 300) < 150 ? 0.25 * LOAD_W / 1.12 : LOAD_W;
    gpu.resistanceCPerW = t -> t < 1800 ? 0.052 : 0.052 * (1 + (t - 1800) / 60);
    Run r = run(gpu, 2000, everyS, t -> 30);
    assertThat(r.firstFiringS()).isNotNull().isGreaterThan(1800);
    assertThat(r.leadS()).isGreaterThanOrEqualTo(leadS);
    assertThat(r.firings()).isLessThanOrEqualTo(2); // warning, then critical
  }

  /**
   * A CDU pump fails after half an hour: the loop's flow falls over 20 s, the coolant at the cold plate warms 8 C per
   * minute (the supply the facility reports by 2 C per minute), the cold plate's resistance grows by half. The
   * facility's flow reading is left at its nominal value (a flow meter that missed it): the GPU's own evidence
   * alone. At 10 s samples it leads by at least 60 s; at 1 s samples too, from the trajectory (the excess swings
   * with the training phases there and its mean over {@code hold_s} stays under {@code warning_c}).
   */
  @ParameterizedTest(name = "every {0} s, seed {1}")
  @CsvSource({"10,1", "10,2", "10,3", "1,1"})
  void aLossOfCoolantFlowIsCalledAtLeast60sBeforeSlowdown(int everyS, long seed) {
    FirstOrderGpu gpu = training(seed, 62);
    double coolant = 62 - 0.052 * LOAD_W;
    gpu.coolantC = t -> t < 1805 ? coolant : coolant + Math.min(30, (t - 1805) * 8 / 60);
    gpu.resistanceCPerW = t -> 0.052 * (1 + 0.5 * Math.min(1, Math.max(0, (t - 1805) / 20)));
    Run r = run(gpu, 2100, everyS, t -> 30 + Math.min(5, Math.max(0, (t - 1805) / 30)));
    assertThat(r.firstFiringS()).isNotNull().isGreaterThan(1805);
    assertThat(r.leadS()).isGreaterThanOrEqualTo(60);
  }

  /**
   * Six hours of training at 62-67 C with a checkpoint every five minutes, the loop's supply drifting 0.8 C over six
   * hours (reported), sampled every 10 s: nothing fires, and the GPU never runs 2 C above its own model.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4})
  void sixHoursOfHealthyTrainingFireNothing(long seed) {
    FirstOrderGpu gpu = training(seed, 64);
    DoubleUnaryOperator supply = t -> 30 + 0.8 * Math.sin(2 * Math.PI * t / 21_600);
    double offset = 64 - 0.052 * LOAD_W - 30;
    gpu.coolantC = t -> supply.applyAsDouble(t) + offset;
    Run r = run(gpu, 6 * 3600, 10, supply);
    assertThat(r.changes()).isEmpty();
    assertThat(r.maxExcessC()).isLessThan(2.0);
  }

  /** Idle at 35 C for an hour, a job starts (62 C at load), runs an hour with checkpoints, stops: nothing fires. */
  @ParameterizedTest(name = "every {0} s, seed {1}")
  @CsvSource({"10,1", "10,2", "1,1"})
  void jobStartAndStopFireNothing(int everyS, long seed) {
    FirstOrderGpu gpu = training(seed, 35);
    gpu.coolantC = t -> 35 - 0.052 * IDLE_W;
    gpu.powerW = t -> t < 3600 || t >= 7200 ? IDLE_W / 1.12 : (t % 300) >= 270 ? 0.25 * LOAD_W / 1.12 : LOAD_W;
    Run r = run(gpu, 3 * 3600, everyS, t -> 30);
    assertThat(r.changes()).isEmpty();
  }

  /** Hot but flat: training at 83 C, 4 C under slowdown, for three hours: nothing fires. */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2})
  void hotButFlatFiresNothing(long seed) {
    Run r = run(training(seed, 83), 3 * 3600, 10, t -> 30);
    assertThat(r.changes()).isEmpty();
  }

  /**
   * A driver reload (the counter restarts from 0), a minute without samples, and one-sample glitches of +10..+20 C
   * during training: nothing fires.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2})
  void counterResetsGapsAndGlitchesFireNothing(long seed) {
    FirstOrderGpu gpu = training(seed, 64);
    java.util.Random glitch = new java.util.Random(seed);
    long[] resetMj = {0};
    Run r = run(gpu, 3 * 3600, 10, t -> 30, s -> {
      double t = (s.getTs() - Samples.T0) / 1000.0;
      if (t > 3000 && t < 3060) {
        return null; // the agent away for a minute
      }
      if (t == 5000) {
        resetMj[0] = s.getEnergyMj();
      }
      GpuSample.Builder b = GpuSample.newBuilder(s).setEnergyMj(s.getEnergyMj() - resetMj[0]);
      if (t % 1230 == 0) {
        b.setTempC(s.getTempC() + 10 + glitch.nextInt(11));
      }
      return b.build();
    });
    assertThat(r.changes()).isEmpty();
  }
}
