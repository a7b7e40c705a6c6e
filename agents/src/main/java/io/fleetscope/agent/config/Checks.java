package io.fleetscope.agent.config;

import java.time.Duration;
import java.util.List;

/** Small validators that produce messages naming the key. */
public final class Checks {
  private Checks() {}

  public static void positive(String key, Duration d) throws ConfigException {
    if (d == null || d.isZero() || d.isNegative()) throw new ConfigException(key, "must be a positive duration, got " + d);
  }

  public static void notNegative(String key, Duration d) throws ConfigException {
    if (d == null || d.isNegative()) throw new ConfigException(key, "must not be negative, got " + d);
  }

  public static void command(String key, List<String> cmd) throws ConfigException {
    if (cmd == null || cmd.isEmpty() || cmd.get(0) == null || cmd.get(0).isBlank()) {
      throw new ConfigException(key, "must be a non-empty list: the program and its arguments, e.g. [nvidia-smi, -q, -x]");
    }
  }

  public static void notBlank(String key, String v) throws ConfigException {
    if (v == null || v.isBlank()) throw new ConfigException(key, "is required");
  }
}
