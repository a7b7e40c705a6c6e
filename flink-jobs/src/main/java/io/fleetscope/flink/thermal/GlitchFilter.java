package io.fleetscope.flink.thermal;

import java.io.Serializable;

/**
 * Drops one-sample temperature glitches: a reading more than {@code glitch_c} from the last accepted one is held
 * back; the next reading confirms it (it is close to the held one: a real jump, both are accepted) or not (the held
 * one was a glitch and is dropped). While a reading is held, the last accepted one stands for it.
 */
final class GlitchFilter implements Serializable {
  private static final long serialVersionUID = 1L;
  private final double glitchC;
  private Double last;
  private long heldTs;
  private Double held;

  GlitchFilter(double glitchC) {
    this.glitchC = glitchC;
  }

  /** What a reading lets into the trend, oldest first: nothing (held), itself, or the confirmed held one and itself. */
  interface Sink {
    void accept(long ts, double tempC);
  }

  /** Feeds one reading; returns the temperature that stands for it now. */
  double offer(long ts, double tempC, Sink sink) {
    if (last == null || Math.abs(tempC - last) <= glitchC || (held != null && Math.abs(tempC - held) <= glitchC)) {
      if (held != null && Math.abs(tempC - held) <= glitchC && Math.abs(tempC - last) > glitchC) {
        sink.accept(heldTs, held);
      }
      held = null;
      last = tempC;
      sink.accept(ts, tempC);
      return tempC;
    }
    held = tempC;
    heldTs = ts;
    return last;
  }
}
