package io.fleetscope.schemas.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --jdbc [URL] --jdbc-user USER --jdbc-password-file FILE}: the TimescaleDB database, for the
 * sink, the console, {@code query} and {@code export}. Each falls back to
 * {@code $FLEETSCOPE_JDBC_URL} and {@code $FLEETSCOPE_JDBC_USER}, then to the local stack's database
 * and the command's own role (the sink writes as {@link LocalEndpoints#JDBC_WRITER_USER}, the readers
 * read as {@link LocalEndpoints#JDBC_READER_USER}). The password is never a flag's value: see
 * {@link DbPassword} ({@code $FLEETSCOPE_JDBC_PASSWORD}, {@code $FLEETSCOPE_JDBC_PASSWORD_FILE}, the
 * local stack's generated file). Add it to a command with {@code @Mixin}.
 */
public final class JdbcOptions {
  public static final String URL_ENV = "FLEETSCOPE_JDBC_URL";
  public static final String USER_ENV = "FLEETSCOPE_JDBC_USER";
  public static final String PASSWORD_ENV = "FLEETSCOPE_JDBC_PASSWORD";
  public static final String PASSWORD_FILE_ENV = "FLEETSCOPE_JDBC_PASSWORD_FILE";
  static final String PREFIX = "FLEETSCOPE_JDBC";

  @Option(names = "--jdbc", arity = "0..1", paramLabel = "URL",
      description = "TimescaleDB JDBC URL (default: $" + URL_ENV + ", else the local stack's " + LocalEndpoints.JDBC_URL + ")")
  String url;

  @Option(names = "--jdbc-user", paramLabel = "USER",
      description = "database user (default: $" + USER_ENV + ", else the command's role on the local stack: "
          + LocalEndpoints.JDBC_WRITER_USER + " for the sink, " + LocalEndpoints.JDBC_READER_USER + " for the readers)")
  String user;

  @Option(names = "--jdbc-password-file", paramLabel = "FILE",
      description = "file holding the user's password (default: $" + PASSWORD_ENV + ", else the file $" + PASSWORD_FILE_ENV
          + ", else the local stack's .fleetscope/secrets/USER.password when present, else none)")
  Path passwordFile;

  public Optional<String> givenUrl() {
    return Endpoint.given(url);
  }

  public Optional<String> givenUser() {
    return Endpoint.given(user);
  }

  /** Whether {@code --jdbc-password-file} was given. */
  public boolean passwordFileGiven() {
    return passwordFile != null;
  }

  public String url() {
    return url(System.getenv());
  }

  public String url(Map<String, String> env) {
    return Endpoint.resolve(url, env, URL_ENV, LocalEndpoints.JDBC_URL);
  }

  /** The user of a reading command (console, query, export). */
  public String user() {
    return user(System.getenv());
  }

  /** The user of a reading command (console, query, export). */
  public String user(Map<String, String> env) {
    return user(env, LocalEndpoints.JDBC_READER_USER);
  }

  /** The flag's user, else {@code $FLEETSCOPE_JDBC_USER}, else {@code commandDefault}. */
  public String user(Map<String, String> env, String commandDefault) {
    return Endpoint.resolve(user, env, USER_ENV, commandDefault);
  }

  /** The password of {@code user} (see {@link DbPassword}); empty when none is configured. */
  public String password(Map<String, String> env, String user) {
    return DbPassword.resolve(passwordFile, env, PREFIX, user, Path.of("")).orElse("");
  }

  /** The password of the reading commands' user. */
  public String password(Map<String, String> env) {
    return password(env, user(env));
  }

  public String password() {
    return password(System.getenv());
  }
}
