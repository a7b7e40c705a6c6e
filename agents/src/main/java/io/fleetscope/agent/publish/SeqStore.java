package io.fleetscope.agent.publish;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The per-agent {@code agent_seq} counter, persisted in the spool directory. A range is written to
 * disk before its numbers are used, so a restart never reuses a number (a crash between reserving
 * and spooling shows as a gap, which is the truth: those records were never spooled).
 */
public final class SeqStore {
  private final Path file;
  private long next;

  public SeqStore(Path dir) throws IOException {
    Files.createDirectories(dir);
    this.file = dir.resolve("agent_seq");
    if (Files.exists(file)) {
      String text = Files.readString(file, StandardCharsets.UTF_8).trim();
      try {
        next = Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new IOException("corrupt " + file + " (expected a number, got '" + text + "'); remove it to restart agent_seq at 1");
      }
    } else {
      next = 1;
    }
  }

  /** Reserves {@code n} numbers and returns the first; the new high mark is on disk before this returns. */
  public synchronized long reserve(int n) throws IOException {
    long first = next;
    Path tmp = file.resolveSibling("agent_seq.tmp");
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Long.toString(first + n).getBytes(StandardCharsets.UTF_8));
      while (b.hasRemaining()) ch.write(b);
      ch.force(false);   // a power loss must not bring back a lower number (reused agent_seq)
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    next = first + n;
    return first;
  }

  /** Makes {@code atLeast} the next number if it is higher (persisted); true when it moved. */
  public synchronized boolean advanceTo(long atLeast) throws IOException {
    if (atLeast <= next) return false;
    next = atLeast;
    reserve(0);
    return true;
  }

  /** The number the next record will get. */
  public synchronized long peek() {
    return next;
  }
}
