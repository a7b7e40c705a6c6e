package io.fleetscope.schemas.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where a database password comes from, never from a flag's value (which shows in {@code ps}): the
 * file given by a flag, else the variable {@code $PREFIX_PASSWORD}, else the file named by
 * {@code $PREFIX_PASSWORD_FILE}, else the local stack's generated file
 * {@code STATE/secrets/USER.password} (STATE: {@code $FLEETSCOPE_STATE_DIR}, else {@code .fleetscope}
 * in the working directory) when it exists, else none. A password file holds the password on its
 * first line; a trailing newline is ignored. The password itself is never put in a message.
 */
public final class DbPassword {
  public static final String STATE_DIR_ENV = "FLEETSCOPE_STATE_DIR";
  public static final String DEFAULT_STATE_DIR = ".fleetscope";

  private DbPassword() {}

  /**
   * @param flagFile the file given by {@code --...-password-file}, or null
   * @param env the environment
   * @param prefix the variables' prefix, e.g. {@code FLEETSCOPE_JDBC}
   * @param user the database user, to find the local stack's file
   * @param workDir where a relative state directory is resolved
   */
  public static Optional<String> resolve(Path flagFile, Map<String, String> env, String prefix, String user, Path workDir) {
    if (flagFile != null) {
      return Optional.of(read(flagFile, "the password file"));
    }
    String value = env.get(prefix + "_PASSWORD");
    if (value != null && !value.isEmpty()) {
      return Optional.of(value);
    }
    String file = env.get(prefix + "_PASSWORD_FILE");
    if (file != null && !file.isBlank()) {
      return Optional.of(read(workDir.resolve(file.trim()), "$" + prefix + "_PASSWORD_FILE"));
    }
    Path local = localFile(env, user, workDir);
    return Files.isRegularFile(local) ? Optional.of(read(local, "the local stack's password file")) : Optional.empty();
  }

  /** The local stack's password file of {@code user}: {@code STATE/secrets/USER.password}. */
  public static Path localFile(Map<String, String> env, String user, Path workDir) {
    String state = env.get(STATE_DIR_ENV);
    Path dir = workDir.resolve(state == null || state.isBlank() ? DEFAULT_STATE_DIR : state.trim());
    return secretsFile(dir, user);
  }

  /** {@code stateDir/secrets/USER.password}: where the local stack writes each role's password. */
  public static Path secretsFile(Path stateDir, String user) {
    return stateDir.resolve("secrets").resolve(user + ".password");
  }

  /** The password on the file's first line; refuses a missing, unreadable or empty file, naming the file. */
  public static String read(Path file, String what) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + what + " " + file + ": " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : " " + e.getMessage()));
    }
    int nl = text.indexOf('\n');
    String first = (nl < 0 ? text : text.substring(0, nl)).replace("\r", "");
    if (first.isEmpty()) {
      throw new IllegalArgumentException(what + " " + file + " is empty: it must hold the password on its first line");
    }
    return first;
  }
}
