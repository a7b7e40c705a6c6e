package io.fleetscope.flink.io;

import java.io.Serializable;

/**
 * The wall clock used for "far in the future" checks and the time of rejection of a dead letter.
 * Analytics themselves run on event time only; {@link #fixed(long)} makes a bounded run reproducible.
 */
@FunctionalInterface
public interface WallClock extends Serializable {
  long now();

  static WallClock system() {
    return System::currentTimeMillis;
  }

  static WallClock fixed(long epochMs) {
    return () -> epochMs;
  }
}
