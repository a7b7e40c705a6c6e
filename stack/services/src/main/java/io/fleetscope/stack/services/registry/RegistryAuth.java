package io.fleetscope.stack.services.registry;

import java.util.Optional;

/**
 * Who may do what on the registry: with users, every write (any method but GET and HEAD: register,
 * delete, config changes, and the POST lookups Confluent's clients make) needs HTTP basic auth of
 * one of them, and reads too when {@code readsNeedAuth}. Without users the registry is open.
 *
 * @param users the accepted users, or empty for an open registry
 * @param readsNeedAuth whether GET and HEAD need auth as well
 */
public record RegistryAuth(Optional<RegistryUsers> users, boolean readsNeedAuth) {
  /** No auth: anyone may read and write (the local stack's default). */
  public static RegistryAuth open() {
    return new RegistryAuth(Optional.empty(), false);
  }

  /** Writes need one of {@code users}; reads too when {@code readsNeedAuth}. */
  public static RegistryAuth basic(RegistryUsers users, boolean readsNeedAuth) {
    return new RegistryAuth(Optional.of(users), readsNeedAuth);
  }

  /** Whether a request with {@code method} needs credentials. */
  public boolean required(String method) {
    if (users.isEmpty()) {
      return false;
    }
    boolean read = method.equals("GET") || method.equals("HEAD");
    return !read || readsNeedAuth;
  }

  /** For the start log line: {@code none}, {@code basic-writes} or {@code basic-all}. */
  public String mode() {
    return users.isEmpty() ? "none" : readsNeedAuth ? "basic-all" : "basic-writes";
  }
}
