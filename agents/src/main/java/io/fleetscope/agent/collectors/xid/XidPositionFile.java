package io.fleetscope.agent.collectors.xid;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** The saved {@link LogFollower.Position} of the kernel log: one line, replaced atomically. */
public final class XidPositionFile {
  private XidPositionFile() {}

  /** The saved position, or null when there is none; a corrupt file is an error naming the file. */
  public static LogFollower.Position load(Path file) throws IOException {
    if (!Files.exists(file)) return null;
    String text = Files.readString(file, StandardCharsets.UTF_8);
    try {
      return LogFollower.Position.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt " + file + " (" + e.getMessage() + "); remove it to start from xid.start_at");
    }
  }

  /** Writes, forces and renames over the old one: a crash leaves the old or the new position, never half. */
  public static void save(Path file, LogFollower.Position p) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer b = ByteBuffer.wrap(p.format().getBytes(StandardCharsets.UTF_8));
      while (b.hasRemaining()) ch.write(b);
      ch.force(false);
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
