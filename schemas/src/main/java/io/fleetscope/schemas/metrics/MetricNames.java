package io.fleetscope.schemas.metrics;

import java.util.Set;

/**
 * The one spelling of our metric names: {@code fleetscope_<component>_<what>}, component being one
 * of {@link #COMPONENTS}.
 */
public final class MetricNames {
  /** The long-running components that serve {@code /metrics}. */
  public static final Set<String> COMPONENTS = Set.of("agent", "analytics", "correlator", "sink", "registry", "console");

  private MetricNames() {}

  /** {@code fleetscope_<component>_}; refuses a component not in {@link #COMPONENTS}. */
  public static String prefix(String component) {
    if (!COMPONENTS.contains(component)) {
      throw new IllegalArgumentException("metrics: unknown component '" + component + "', expected one of " + COMPONENTS);
    }
    return "fleetscope_" + component + "_";
  }

  /** {@code text} as a metric or label name: every character outside [a-zA-Z0-9_] becomes '_'. */
  public static String sanitize(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
      sb.append(ok ? ch : '_');
    }
    if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) {
      sb.insert(0, '_');
    }
    return sb.toString();
  }
}
