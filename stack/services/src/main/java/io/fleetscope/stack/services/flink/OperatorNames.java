package io.fleetscope.stack.services.flink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Flink's operator ids (32 hex digits, what its restore errors name) and the uids we gave those
 * operators, for every program ever submitted from this state directory: a savepoint's operators
 * are those of the program that wrote it, which may no longer exist in the code. Kept as
 * {@code id<TAB>uid} lines.
 */
public final class OperatorNames {
  private final Map<String, String> uidById = new TreeMap<>();
  private final Path file;

  private OperatorNames(Path file) {
    this.file = file;
  }

  /** The names recorded in {@code file} (none when it does not exist yet). */
  public static OperatorNames load(Path file) {
    OperatorNames n = new OperatorNames(file);
    if (file != null && Files.isRegularFile(file)) {
      try {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          String[] f = line.split("\t", 2);
          if (f.length == 2) {
            n.uidById.put(f[0], f[1]);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
      }
    }
    return n;
  }

  /** An empty set not backed by a file. */
  public static OperatorNames none() {
    return new OperatorNames(null);
  }

  /** Adds a program's operators and writes the file. */
  public OperatorNames record(Map<String, String> program) {
    uidById.putAll(program);
    if (file != null) {
      StringBuilder b = new StringBuilder();
      uidById.forEach((id, uid) -> b.append(id).append('\t').append(uid).append('\n'));
      try {
        Files.createDirectories(file.getParent());
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
      }
    }
    return this;
  }

  /** {@code uid (id)} where the uid is known, else the id. */
  public String describe(String id) {
    String uid = uidById.get(id);
    return uid == null ? id : uid + " (" + id + ")";
  }
}
