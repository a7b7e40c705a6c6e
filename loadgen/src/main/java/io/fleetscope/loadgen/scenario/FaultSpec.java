package io.fleetscope.loadgen.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One fault as written in a scenario file: what, where (selector), when (offsets from the start of
 * the run; {@code end} null = until the end) and how strongly ({@code params}).
 *
 * @param alerts expected alertnames, overriding the type's defaults (null = defaults)
 * @param match label keys an anomaly must share with the target to count (null = per alert default)
 */
public record FaultSpec(String id, FaultType type, Map<String, Object> target, Duration start, Duration end,
    Map<String, Object> params, List<String> alerts, List<String> match) {

  public double param(String name, double dflt) {
    Object v = params.get(name);
    if (v == null) {
      return dflt;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    try {
      return Double.parseDouble(v.toString());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("fault " + id + ": param " + name + " must be a number, got '" + v + "'");
    }
  }

  public String param(String name, String dflt) {
    Object v = params.get(name);
    return v == null ? dflt : v.toString();
  }

  /** A duration param (e.g. {@code dbe_at: 6m}, offset from the fault's start). */
  public Duration durationParam(String name, Duration dflt) {
    Object v = params.get(name);
    if (v == null) {
      return dflt;
    }
    return Durations.of(v);
  }

  @SuppressWarnings("unchecked")
  public List<Integer> intListParam(String name, List<Integer> dflt) {
    Object v = params.get(name);
    if (v == null) {
      return dflt;
    }
    if (v instanceof List<?> l) {
      return l.stream().map(o -> ((Number) o).intValue()).toList();
    }
    if (v instanceof Number n) {
      return List.of(n.intValue());
    }
    throw new IllegalArgumentException("fault " + id + ": param " + name + " must be a list of integers");
  }
}
