package io.fleetscope.loadgen.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Holds raw records back on purpose, as real agents' records arrive: a {@code lateFraction} of
 * them 60-180 s (late), a {@code reorderFraction} 1-3 ticks (out of order), the rest at once.
 * Each record's fate is drawn from the random stream of the agent that sends it.
 */
final class Disorder {
  private final double lateFraction;
  private final double reorderFraction;
  private final long intervalMs;
  private final TreeMap<Long, List<SimRecord>> held = new TreeMap<>();

  Disorder(SimConfig c) {
    this.lateFraction = c.lateFraction();
    this.reorderFraction = c.reorderFraction();
    this.intervalMs = c.intervalMs();
  }

  /** Adds the record to {@code out} now, or holds it back for a later tick. */
  void emit(SimRecord r, Rng agent, long tick, List<SimRecord> out) {
    double u = agent.uniform();
    long hold = 0;
    if (u < lateFraction) {
      hold = Math.max(1, (long) (agent.uniform(60_000, 180_000) / intervalMs));
    } else if (u < lateFraction + reorderFraction) {
      hold = 1 + agent.nextInt(3);
    }
    if (hold == 0) {
      out.add(r);
    } else {
      held.computeIfAbsent(tick + hold, k -> new ArrayList<>()).add(r);
    }
  }

  /** Adds the records held back until this tick to {@code out}. */
  void release(long tick, List<SimRecord> out) {
    List<SimRecord> due = held.remove(tick);
    if (due != null) {
      out.addAll(due);
    }
  }

  /** Every record still held, in the order of the ticks they were due; none held afterwards. */
  List<SimRecord> drain() {
    List<SimRecord> out = new ArrayList<>();
    held.values().forEach(out::addAll);
    held.clear();
    return out;
  }
}
