package io.fleetscope.schemas.cli;

import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --jdbc-owner USER --jdbc-owner-password-file FILE}: the credential that applies the
 * migrations (the database's owner), kept apart from the role the sink writes as. Falls back to
 * {@code $FLEETSCOPE_JDBC_OWNER}, then {@link LocalEndpoints#JDBC_USER}; the password as in
 * {@link DbPassword} with the prefix {@code FLEETSCOPE_JDBC_OWNER}.
 */
public final class JdbcOwnerOptions {
  public static final String USER_ENV = "FLEETSCOPE_JDBC_OWNER";
  public static final String PASSWORD_ENV = "FLEETSCOPE_JDBC_OWNER_PASSWORD";
  public static final String PASSWORD_FILE_ENV = "FLEETSCOPE_JDBC_OWNER_PASSWORD_FILE";

  @Option(names = "--jdbc-owner", paramLabel = "USER",
      description = "the database's owner, which applies the migrations (default: $" + USER_ENV + ", else "
          + LocalEndpoints.JDBC_USER + ")")
  String user;

  @Option(names = "--jdbc-owner-password-file", paramLabel = "FILE",
      description = "file holding the owner's password (default: $" + PASSWORD_ENV + ", else the file $" + PASSWORD_FILE_ENV
          + ", else the local stack's .fleetscope/secrets/USER.password when present, else none)")
  Path passwordFile;

  public java.util.Optional<String> givenUser() {
    return Endpoint.given(user);
  }

  public boolean passwordFileGiven() {
    return passwordFile != null;
  }

  public String user(Map<String, String> env) {
    return Endpoint.resolve(user, env, USER_ENV, LocalEndpoints.JDBC_USER);
  }

  /** The password of the owner {@code user}, empty when none is configured. */
  public String password(Map<String, String> env, String user) {
    return DbPassword.resolve(passwordFile, env, "FLEETSCOPE_JDBC_OWNER", user, Path.of("")).orElse("");
  }
}
