package io.fleetscope.agent.config;

/** A configuration error; the message names the offending key (dotted path) and why it is wrong. */
public final class ConfigException extends Exception {
  private final String key;

  public ConfigException(String key, String why) {
    super(key.isEmpty() ? why : key + ": " + why);
    this.key = key;
  }

  /** Dotted path of the offending key, e.g. {@code kafka.compression}; empty for the whole file. */
  public String key() {
    return key;
  }
}
