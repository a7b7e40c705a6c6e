package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * A GPU's own thermal model, learned from its history, and how far its temperature now runs above it: the runaway
 * signal that needs no fitted trajectory.
 *
 * <p>The die is read as a first-order response to the mean power of each sample interval ({@link IntervalPower}):
 * {@code T_ss = coolant + b + R * P}, approached with time constant {@code die_tau_s}. {@code coolant} is the rack
 * loop's supply temperature where the facility reports one (else 0, and {@code b} holds it). {@code R} (its thermal
 * resistance as seen from the supply, the rack's coolant rise included) and {@code b} (hot spot, coolant rise at
 * idle) are an exponentially weighted least-squares fit over {@code learn_s} of the steady states the
 * samples imply: {@code T_ss = (T_k - a T_j) / (1 - a)}, {@code a = exp(-(t_k - t_j) / die_tau_s)}, from a sample
 * {@code j} at least {@link #LEARN_STEP_S} earlier with the mean power between them, which is exact for a
 * first-order die under constant power between two samples, so warm-ups, cool-downs and checkpoints teach it as
 * well as steady running does.
 *
 * <p>The model temperature {@code M} follows the same first-order response driven by the learned steady state; the
 * excess {@code T - M} is what this class reports. A cold plate losing contact or a loop losing flow raises the GPU's
 * resistance: its temperature leaves the model at once, well before a trajectory fit has enough samples in one power
 * segment. {@code M} is pulled towards the reading with time constant {@code track_s} (a slow offset, a
 * coolant change the facility does not report, is forgotten; a runaway of several degrees a minute is not), learning
 * stops while the excess is above {@code learn_max_c} (a runaway is not learned as the new normal), and no
 * excess is reported until the fit has {@code min_learn_s} of samples and at least
 * {@code cover_s} of them near the current power (within {@link #BIN_FRACTION} of the power limit): a power
 * level the GPU has not been seen at is not judged by an extrapolation. While no excess is reported, {@code M} is the
 * reading.
 */
final class ThermalBaseline implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Width of the power bins that say which powers the fit has seen, as a fraction of the power limit. */
  static final double BIN_FRACTION = 0.1;
  /**
   * The steady state is learned over at least this many seconds (from an anchor sample to the current one, with the
   * mean power between them): at 1 s samples the inversion over one second would amplify the sensor noise 30-fold.
   */
  static final double LEARN_STEP_S = 10;
  /** Prior resistance, C per kW, and its weight (sample-seconds at a 1 kW spread): only to keep the fit solvable. */
  private static final double PRIOR_R_C_PER_KW = 60;
  private static final double PRIOR_WEIGHT = 1;

  private final ThermalRiskSettings.Resistance cfg;
  /** Decayed least-squares sums over (x = P in kW, y = T_ss - coolant), weights in seconds. */
  private double s0;
  private double s1;
  private double s2;
  private double y0;
  private double y1;
  /** Decayed seconds of learning near each power, by bin of {@link #BIN_FRACTION} of the limit. */
  private final double[] cover = new double[(int) Math.ceil(1.5 / BIN_FRACTION) + 1];
  private double learnedS;
  private double lastT = Double.NaN;
  private double model = Double.NaN;
  /** The anchor of the next learning step: its reading, and the energy (J) and seconds since it. */
  private double anchorT = Double.NaN;
  private double sinceJ;
  private double sinceS;
  /** Whether the fit was learned against a reported supply temperature (0: not yet known). */
  private int withSupply;

  ThermalBaseline(ThermalRiskSettings.Resistance cfg) {
    this.cfg = cfg;
  }

  /**
   * One sample: its temperature, the mean power over the interval that ends at it (null: unknown, the model restarts
   * from the next reading), the interval in seconds, the loop's supply temperature (null: not reported) and the
   * GPU's power limit. Returns the excess {@code T - M} in C, or null while the model cannot judge this sample.
   */
  Double offer(double tempC, Double meanPowerW, double dtS, Double supplyC, double limitW) {
    int supply = supplyC != null ? 1 : -1;
    if (withSupply != 0 && supply != withSupply) {
      forget(); // the coolant input changed meaning: b was learned against another reference
    }
    if (meanPowerW == null || dtS <= 0 || Double.isNaN(lastT)) {
      lastT = meanPowerW == null ? Double.NaN : tempC;
      model = Double.NaN;
      anchorT = lastT;
      sinceJ = 0;
      sinceS = 0;
      if (meanPowerW != null) {
        withSupply = supply;
      }
      return null;
    }
    withSupply = supply;
    double coolant = supplyC != null ? supplyC : 0;
    double a = Math.exp(-dtS / cfg.dieTauS());
    double kw = meanPowerW / 1000;
    double expected = coolant + predictedRise(kw);
    boolean judged = learnedS >= cfg.minLearnS() && coveredS(meanPowerW, limitW) >= cfg.coverS()
        && !Double.isNaN(model);
    Double excess = null;
    if (judged) {
      model = a * model + (1 - a) * expected;
      excess = tempC - model;
      model += (1 - Math.exp(-dtS / cfg.trackS())) * (tempC - model);
    } else {
      model = tempC;
    }
    sinceJ += meanPowerW * dtS;
    sinceS += dtS;
    if (excess == null || excess <= cfg.learnMaxC()) {
      see(meanPowerW / limitW, dtS); // each sample's own power: at 1 s samples the training phases' levels too
    }
    if (excess != null && excess > cfg.learnMaxC()) {
      anchorT = Double.NaN; // not learned as the new normal; learning restarts from the next sample
    } else if (Double.isNaN(anchorT)) {
      anchorT = tempC;
      sinceJ = 0;
      sinceS = 0;
    } else if (sinceS >= LEARN_STEP_S - 1e-9) {
      double span = Math.exp(-sinceS / cfg.dieTauS());
      double p = sinceJ / sinceS;
      learn(p / 1000, (tempC - span * anchorT) / (1 - span) - coolant, sinceS);
      anchorT = tempC;
      sinceJ = 0;
      sinceS = 0;
    }
    lastT = tempC;
    return excess;
  }

  /** The fit's steady-state rise over the coolant at a power, C. */
  private double predictedRise(double kw) {
    // minimise sum w (y - b - R x)^2 + PRIOR_WEIGHT (R - PRIOR)^2
    double m00 = s0;
    double m01 = s1;
    double m11 = s2 + PRIOR_WEIGHT;
    double r0 = y0;
    double r1 = y1 + PRIOR_WEIGHT * PRIOR_R_C_PER_KW;
    double det = m00 * m11 - m01 * m01;
    if (!(det > 1e-12)) {
      return PRIOR_R_C_PER_KW * kw;
    }
    double b = (m11 * r0 - m01 * r1) / det;
    double r = (m00 * r1 - m01 * r0) / det;
    return b + r * kw;
  }

  private void learn(double kw, double rise, double dtS) {
    double keep = Math.exp(-dtS / cfg.learnS());
    s0 = s0 * keep + dtS;
    s1 = s1 * keep + dtS * kw;
    s2 = s2 * keep + dtS * kw * kw;
    y0 = y0 * keep + dtS * rise;
    y1 = y1 * keep + dtS * kw * rise;
    learnedS += dtS;
  }

  /** Counts a sample's seconds at its power (decayed over {@code learn_s}). */
  private void see(double powerFraction, double dtS) {
    double keep = Math.exp(-dtS / cfg.learnS());
    for (int i = 0; i < cover.length; i++) {
      cover[i] *= keep;
    }
    cover[bin(powerFraction)] += dtS;
  }

  /** Seconds of (decayed) learning at this power's bin and its neighbours. */
  private double coveredS(double powerW, double limitW) {
    int b = bin(powerW / limitW);
    double s = cover[b];
    if (b > 0) {
      s += cover[b - 1];
    }
    if (b + 1 < cover.length) {
      s += cover[b + 1];
    }
    return s;
  }

  private int bin(double fraction) {
    return (int) Math.max(0, Math.min(cover.length - 1, Math.round(fraction / BIN_FRACTION)));
  }

  private void forget() {
    s0 = s1 = s2 = y0 = y1 = 0;
    java.util.Arrays.fill(cover, 0);
    learnedS = 0;
    lastT = Double.NaN;
    model = Double.NaN;
    withSupply = 0;
  }
}
