package io.fleetscope.flink.fleet;

import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** Orders GPU model strings by training speed from a configured slowest-first list of families. */
public final class ModelRanking implements Serializable {
  private final List<String> slowestFirst;

  public ModelRanking(List<String> slowestFirst) {
    this.slowestFirst = List.copyOf(slowestFirst);
  }

  /** Rank of a model (0 = slowest); unknown models rank after every known one. */
  public int rank(String model) {
    String m = squash(model);
    int best = -1;
    int bestLen = -1;
    for (int i = 0; i < slowestFirst.size(); i++) {
      String f = squash(slowestFirst.get(i));
      if (!f.isEmpty() && m.contains(f) && f.length() > bestLen) {
        best = i;
        bestLen = f.length();
      }
    }
    return best < 0 ? slowestFirst.size() : best;
  }

  /** The slowest of the models (ties and unknowns broken by name for a stable answer). */
  public String slowest(java.util.Collection<String> models) {
    return models.stream()
        .min(Comparator.comparingInt(this::rank).thenComparing(Comparator.naturalOrder()))
        .orElseThrow();
  }

  static String squash(String s) {
    return s == null ? "" : s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
  }
}
