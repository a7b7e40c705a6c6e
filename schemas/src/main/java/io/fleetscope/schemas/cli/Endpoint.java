package io.fleetscope.schemas.cli;

import java.util.Map;
import java.util.Optional;

/** How an endpoint option is resolved: the flag's value, else an environment variable, else the local stack's. */
final class Endpoint {
  private Endpoint() {}

  /** The flag's value unless it is absent or empty ({@code --kafka} alone means "the default"). */
  static Optional<String> given(String flagValue) {
    return flagValue == null || flagValue.isBlank() ? Optional.empty() : Optional.of(flagValue.trim());
  }

  static String resolve(String flagValue, Map<String, String> env, String variable, String local) {
    return given(flagValue).orElseGet(() -> {
      String v = env.get(variable);
      return v == null || v.isBlank() ? local : v.trim();
    });
  }
}
