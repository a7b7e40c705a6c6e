package io.fleetscope.flink.thermal;

import java.io.Serializable;
import java.util.ArrayDeque;

/**
 * The excess over a GPU's own thermal model ({@link ThermalBaseline}) over the last {@code hold_s}: its mean, once
 * judged samples span at least that long without a gap. One sample above {@code warning_c} is not enough (a healthy
 * GPU's excess passed 2.5 C in single samples of the 1 h soak at 10 s); nor is one phase of a training step at 1 s
 * samples, where the excess of a GPU with a grown resistance swings with the phases: the mean over the window is what
 * a runaway keeps raising.
 */
final class ExcessWindow implements Serializable {
  private static final long serialVersionUID = 1L;
  private final long holdMs;
  private final ArrayDeque<double[]> samples = new ArrayDeque<>();

  ExcessWindow(double holdS) {
    this.holdMs = (long) (holdS * 1000);
  }

  /** Adds a sample's excess (null: not judged; the window restarts); returns the held mean, or null. */
  Double offer(long ts, Double excessC) {
    if (excessC == null) {
      samples.clear();
      return null;
    }
    samples.addLast(new double[] {ts, excessC});
    while (samples.size() > 2 && ts - (long) samples.peekFirst()[0] > holdMs
        && ts - (long) secondOldest()[0] >= holdMs) {
      samples.removeFirst();
    }
    if (samples.size() < 2 || ts - (long) samples.peekFirst()[0] < holdMs) {
      return null;
    }
    double sum = 0;
    for (double[] s : samples) {
      sum += s[1];
    }
    return sum / samples.size();
  }

  private double[] secondOldest() {
    var it = samples.iterator();
    it.next();
    return it.next();
  }
}
