package io.fleetscope.stack.services;

import io.fleetscope.schemas.cli.DbPassword;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * The generated passwords of the local PostgreSQL's roles, one file per role
 * ({@code DIR/ROLE.password}, mode 600, in a directory of mode 700), made once and kept: the
 * commands find them there by default ({@link DbPassword}). The superuser's password is first
 * written to {@code postgres.password.new} and renamed only once the server has it, so a start
 * interrupted in between starts over rather than locking us out.
 */
final class PostgresSecrets {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String PENDING = ".new";

  private final Path dir;

  PostgresSecrets(Path dir) {
    this.dir = dir;
  }

  Path dir() {
    return dir;
  }

  /** {@code DIR/ROLE.password}. */
  Path file(String role) {
    return dir.resolve(role + ".password");
  }

  /**
   * Makes the directory and every missing password file. Returns whether the superuser's password
   * is new (the server does not have it yet).
   */
  boolean prepare() {
    try {
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      for (String role : List.of(LocalPostgres.APP_ROLE, LocalPostgres.WRITER_LOGIN, LocalPostgres.READER_LOGIN)) {
        if (!Files.exists(file(role))) {
          writeNew(file(role));
        }
      }
      if (Files.exists(file(LocalPostgres.SUPERUSER))) {
        return false;
      }
      if (!Files.exists(pendingSuperuser())) {
        writeNew(pendingSuperuser());
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("postgres: cannot write the password files in " + dir + ": " + e.getMessage(), e);
    }
  }

  String password(String role) {
    return DbPassword.read(file(role), "the password file of " + role);
  }

  /** The superuser's password: the committed one, else the one being set. */
  String superuserPassword() {
    Path committed = file(LocalPostgres.SUPERUSER);
    return DbPassword.read(Files.exists(committed) ? committed : pendingSuperuser(), "the superuser's password file");
  }

  /** The server has the superuser's new password: keep it. */
  void commitSuperuser() {
    try {
      Files.move(pendingSuperuser(), file(LocalPostgres.SUPERUSER), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("postgres: cannot keep the superuser's password file: " + e.getMessage(), e);
    }
  }

  private Path pendingSuperuser() {
    return dir.resolve(LocalPostgres.SUPERUSER + ".password" + PENDING);
  }

  /** A new file of mode 600 with 32 random URL-safe characters and a newline. */
  private static void writeNew(Path file) throws IOException {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tmp, password + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
  }
}
