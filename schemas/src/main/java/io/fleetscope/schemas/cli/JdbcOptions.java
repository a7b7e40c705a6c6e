package io.fleetscope.schemas.cli;

import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --jdbc [URL] --jdbc-user USER --jdbc-password PASSWORD}: the TimescaleDB database, for the
 * sink, the console, {@code query} and {@code export}. Each falls back to
 * {@code $FLEETSCOPE_JDBC_URL}, {@code $FLEETSCOPE_JDBC_USER} and {@code $FLEETSCOPE_JDBC_PASSWORD},
 * then to the local stack's database, user {@code fleetscope} and no password. Add it to a command
 * with {@code @Mixin}.
 */
public final class JdbcOptions {
  public static final String URL_ENV = "FLEETSCOPE_JDBC_URL";
  public static final String USER_ENV = "FLEETSCOPE_JDBC_USER";
  public static final String PASSWORD_ENV = "FLEETSCOPE_JDBC_PASSWORD";

  @Option(names = "--jdbc", arity = "0..1", paramLabel = "URL",
      description = "TimescaleDB JDBC URL (default: $" + URL_ENV + ", else the local stack's " + LocalEndpoints.JDBC_URL + ")")
  String url;

  @Option(names = "--jdbc-user", paramLabel = "USER",
      description = "database user (default: $" + USER_ENV + ", else " + LocalEndpoints.JDBC_USER + ")")
  String user;

  @Option(names = "--jdbc-password", paramLabel = "PASSWORD",
      description = "database password (default: $" + PASSWORD_ENV + ", else none; prefer the variable: a flag shows in ps)")
  String password;

  public Optional<String> givenUrl() {
    return Endpoint.given(url);
  }

  public Optional<String> givenUser() {
    return Endpoint.given(user);
  }

  public Optional<String> givenPassword() {
    return Optional.ofNullable(password);
  }

  public String url() {
    return url(System.getenv());
  }

  public String url(Map<String, String> env) {
    return Endpoint.resolve(url, env, URL_ENV, LocalEndpoints.JDBC_URL);
  }

  public String user() {
    return user(System.getenv());
  }

  public String user(Map<String, String> env) {
    return Endpoint.resolve(user, env, USER_ENV, LocalEndpoints.JDBC_USER);
  }

  public String password() {
    return password(System.getenv());
  }

  public String password(Map<String, String> env) {
    return password != null ? password : env.getOrDefault(PASSWORD_ENV, "");
  }
}
