package io.fleetscope.flink.thermal;

import io.fleetscope.avro.GpuSample;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;

/**
 * A simulated GPU for thermal tests with a known answer: its temperature follows a first-order response
 * {@code dT/dt = (coolant + R * power - T) / tau}, sampled every second with Gaussian sensor noise, optionally
 * rounded to whole degrees, with training-phase power swings (compute at 1.12x, all-reduce at 0.7x of the mean power,
 * a 6 s step) when asked, and the cumulative energy counter when asked. Coolant, resistance and mean power are functions of the time in seconds.
 */
final class FirstOrderGpu {
  private final Random rng;
  double tauS = 20;
  double noiseC = 0.3;
  boolean wholeDegrees;
  boolean phases;
  DoubleUnaryOperator coolantC = t -> 34;
  DoubleUnaryOperator resistanceCPerW = t -> 0.052;
  DoubleUnaryOperator powerW = t -> 540;
  double tempC;
  /** Whether samples carry the cumulative energy counter (mJ), as DCGM's total energy consumption. */
  boolean energyCounter;
  double energyMj = 3.6e9;
  private int second;

  FirstOrderGpu(long seed, double startC) {
    this.rng = new Random(seed);
    this.tempC = startC;
  }

  /** Steady state at time t (mean power). */
  double steadyStateAt(double t) {
    return coolantC.applyAsDouble(t) + resistanceCPerW.applyAsDouble(t) * powerW.applyAsDouble(t);
  }

  int second() {
    return second;
  }

  /** Advances one second and returns that second's sample. */
  GpuSample.Builder next() {
    double t = ++second;
    double p = powerW.applyAsDouble(t);
    if (phases) {
      p *= (second % 6) < 4 ? 1.12 : 0.76;
    }
    double target = coolantC.applyAsDouble(t) + resistanceCPerW.applyAsDouble(t) * p;
    tempC += (target - tempC) * (1 - Math.exp(-1 / tauS));
    energyMj += p * 1000;
    double reported = tempC + rng.nextGaussian() * noiseC;
    if (wholeDegrees) {
      reported = Math.round(reported);
    }
    GpuSample.Builder b = Samples.gpu(t, reported).setPowerW(p);
    return energyCounter ? b.setEnergyMj((long) energyMj) : b;
  }
}
