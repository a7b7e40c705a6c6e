package io.fleetscope.agent.schedule;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * The agent's own metrics (collector rounds, publisher and spool), rendered in the Prometheus text
 * exposition format. Thread-safe; no global state: one instance per agent.
 */
public final class SelfMetrics {
  private record Family(String name, String type, String help, Map<String, DoubleAdder> series) {}

  private final Map<String, Family> families = new ConcurrentSkipListMap<>();

  /** Declares a metric; {@code type} is {@code counter} or {@code gauge}. */
  public SelfMetrics declare(String name, String type, String help) {
    families.putIfAbsent(name, new Family(name, type, help, new ConcurrentHashMap<>()));
    return this;
  }

  public void inc(String name, String labels, double by) {
    series(name, labels).add(by);
  }

  public void set(String name, String labels, double value) {
    DoubleAdder a = series(name, labels);
    synchronized (a) {
      a.reset();
      a.add(value);
    }
  }

  public double get(String name, String labels) {
    Family f = families.get(name);
    if (f == null) return Double.NaN;
    DoubleAdder a = f.series.get(labels);
    return a == null ? Double.NaN : a.sum();
  }

  private DoubleAdder series(String name, String labels) {
    Family f = families.get(name);
    if (f == null) throw new IllegalArgumentException("undeclared metric " + name);
    return f.series.computeIfAbsent(labels, k -> new DoubleAdder());
  }

  /** {@code collector="gpu"}-style label text, with values escaped. */
  public static String labels(String... kv) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i + 1 < kv.length; i += 2) {
      if (sb.length() > 0) sb.append(',');
      sb.append(kv[i]).append("=\"")
          .append(kv[i + 1].replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
    }
    return sb.toString();
  }

  public String render() {
    StringBuilder sb = new StringBuilder(2048);
    for (Family f : families.values()) {
      sb.append("# HELP ").append(f.name).append(' ').append(f.help).append('\n');
      sb.append("# TYPE ").append(f.name).append(' ').append(f.type).append('\n');
      for (var e : new TreeMap<>(f.series).entrySet()) {
        sb.append(f.name);
        if (!e.getKey().isEmpty()) sb.append('{').append(e.getKey()).append('}');
        sb.append(' ').append(format(e.getValue().sum())).append('\n');
      }
    }
    return sb.toString();
  }

  private static String format(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
    return Double.toString(v);
  }
}
