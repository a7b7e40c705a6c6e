package io.fleetscope.loadgen.bench.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When each fault happens: spread evenly between a warm-up and the last quarter of the run (left
 * for the pipeline to catch up after the last one), in the order given. Alertmanager stays down for
 * {@code alertmanagerDown}.
 */
public record ChaosSchedule(List<Entry> entries, Duration alertmanagerDown) {

  /** A fault and its offset from the start of the fleet. */
  public record Entry(Duration at, FaultKind kind) {}

  /** {@code faults} over a fleet of {@code total}, the first after {@code warmup}. */
  public static ChaosSchedule plan(Duration total, Duration warmup, List<FaultKind> faults) {
    if (faults.isEmpty()) {
      throw new IllegalArgumentException("chaos: no faults to schedule");
    }
    long lastAt = total.toMillis() * 3 / 4;
    if (lastAt <= warmup.toMillis()) {
      throw new IllegalArgumentException("chaos: a run of " + total.toSeconds() + " s leaves no time for faults after the "
          + warmup.toSeconds() + " s warm-up");
    }
    long step = faults.size() == 1 ? 0 : (lastAt - warmup.toMillis()) / (faults.size() - 1);
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < faults.size(); i++) {
      out.add(new Entry(Duration.ofMillis(warmup.toMillis() + i * step), faults.get(i)));
    }
    // down for a fifth of the run, at least a minute and at most five
    long down = Math.max(60_000, Math.min(300_000, total.toMillis() / 5));
    return new ChaosSchedule(List.copyOf(out), Duration.ofMillis(down));
  }
}
