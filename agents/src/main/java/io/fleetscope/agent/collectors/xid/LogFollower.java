package io.fleetscope.agent.collectors.xid;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Follows a growing log file: each {@link #readNew} returns the complete lines appended since the
 * last call. Rotation (a new file at the path, or the file shrinking) restarts at its beginning; a
 * partial last line waits for its newline.
 */
public final class LogFollower {
  private final Path file;
  private Object fileKey;
  private long offset;

  /** @param fromEnd start at the current end (skip history) instead of the beginning */
  public LogFollower(Path file, boolean fromEnd) throws IOException {
    this.file = file;
    if (Files.exists(file)) {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      fileKey = a.fileKey();
      offset = fromEnd ? a.size() : 0;
    }
  }

  public long offset() {
    return offset;
  }

  public String readNew() throws IOException {
    if (!Files.exists(file)) return "";
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    if ((fileKey != null && !fileKey.equals(a.fileKey())) || a.size() < offset) {
      offset = 0; // rotated or truncated
    }
    fileKey = a.fileKey();
    if (a.size() == offset) return "";
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long len = Math.min(a.size() - offset, 16L << 20);
      byte[] buf = new byte[(int) len];
      raf.seek(offset);
      raf.readFully(buf);
      int lastNl = -1;
      for (int i = buf.length - 1; i >= 0; i--) {
        if (buf[i] == '\n') {
          lastNl = i;
          break;
        }
      }
      if (lastNl < 0) return "";
      offset += lastNl + 1;
      return new String(buf, 0, lastNl + 1, StandardCharsets.UTF_8);
    }
  }
}
