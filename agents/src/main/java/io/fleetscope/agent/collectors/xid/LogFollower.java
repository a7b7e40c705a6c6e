package io.fleetscope.agent.collectors.xid;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * Follows a growing log file: each {@link #readNew} returns the complete lines appended since the
 * last call; a partial last line waits for its newline.
 *
 * <p>Where it is ({@link Position}: the file's identity, the offset after the last complete line
 * and a hash of that line) can be saved and given back after a restart, so the lines logged while
 * the agent was down are read, and none twice. Rotation: when the file at the path is a new one
 * (logrotate's rename), the rest of the old file is read first if it is still next to it (e.g.
 * {@code kern.log.1}), then the new file from its beginning. A file that shrank or whose line at
 * the saved offset changed (copytruncate, rewritten) is read from its beginning.
 */
public final class LogFollower {
  /** Where a follower is; {@code fileKey} is the file system's identity of the file (device and inode). */
  public record Position(String fileKey, long offset, long lastLineHash) {
    public String format() {
      return "file_key=" + fileKey + " offset=" + offset + " line_hash=" + lastLineHash + "\n";
    }

    /** Parses {@link #format}; throws IllegalArgumentException when the text is not one. */
    public static Position parse(String text) {
      String key = null;
      Long offset = null;
      Long hash = null;
      for (String part : text.strip().split(" (?=[a-z_]+=)")) {
        int eq = part.indexOf('=');
        if (eq < 0) throw new IllegalArgumentException("not key=value: '" + part + "'");
        String v = part.substring(eq + 1);
        switch (part.substring(0, eq)) {
          case "file_key" -> key = v;
          case "offset" -> offset = Long.parseLong(v);
          case "line_hash" -> hash = Long.parseLong(v);
          default -> throw new IllegalArgumentException("unknown key '" + part.substring(0, eq) + "'");
        }
      }
      if (key == null || offset == null || hash == null || offset < 0) {
        throw new IllegalArgumentException("expected file_key, offset and line_hash, got '" + text.strip() + "'");
      }
      return new Position(key, offset, hash);
    }
  }

  /** Why the saved position could not be used as it was (for the start log line); null when it was. */
  private String resumeNote;
  private static final int HASH_WINDOW = 64 * 1024;

  private final Path file;
  private String fileKey;
  private long offset;
  private long lastLineHash;

  /** @param fromEnd start at the current end (skip history) instead of the beginning */
  public LogFollower(Path file, boolean fromEnd) throws IOException {
    this.file = file;
    if (Files.exists(file)) {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      fileKey = key(a);
      offset = fromEnd ? a.size() : 0;
      lastLineHash = hashOfLineBefore(file, offset);
    }
  }

  /** Resumes at {@code saved} (from an earlier run); see the class comment for rotation and truncation. */
  public LogFollower(Path file, Position saved) throws IOException {
    this.file = file;
    this.fileKey = saved.fileKey();
    this.offset = saved.offset();
    this.lastLineHash = saved.lastLineHash();
    if (Files.exists(file) && key(Files.readAttributes(file, BasicFileAttributes.class)).equals(saved.fileKey())) {
      if (!matches(file, saved)) {
        resumeNote = "file shrank or changed at the saved offset: reading it from the beginning";
        offset = 0;
        lastLineHash = 0;
      }
    } else {
      resumeNote = findByKey(saved.fileKey()) != null
          ? "file rotated while stopped: reading the rest of the old file first"
          : "file rotated while stopped and the old one is gone: reading the new one from the beginning";
    }
  }

  /** Goes back to {@code p} (a position this follower had): the lines after it are read again. */
  public void reset(Position p) {
    fileKey = p.fileKey();
    offset = p.offset();
    lastLineHash = p.lastLineHash();
  }

  public Position position() {
    return new Position(fileKey, offset, lastLineHash);
  }

  /** Why a saved position was not used as it was, or null. */
  public String resumeNote() {
    return resumeNote;
  }

  public String readNew() throws IOException {
    if (!Files.exists(file)) return "";
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    String key = key(a);
    StringBuilder out = new StringBuilder();
    if (fileKey != null && !fileKey.equals(key)) {
      // rotated: finish the old file if it is still there, then the new one from its start
      Path old = findByKey(fileKey);
      if (old != null && matches(old, position())) out.append(readRest(old, offset));
      offset = 0;
      lastLineHash = 0;
    } else if (a.size() < offset) {
      offset = 0; // truncated
      lastLineHash = 0;
    }
    fileKey = key;
    if (a.size() == offset) return out.toString();
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long len = Math.min(a.size() - offset, 16L << 20);
      byte[] buf = new byte[(int) len];
      raf.seek(offset);
      raf.readFully(buf);
      int lastNl = lastIndexOf(buf, buf.length - 1);
      if (lastNl < 0) return out.toString();
      int lineStart = lastIndexOf(buf, lastNl - 1) + 1;
      lastLineHash = hash(buf, Math.max(lineStart, lastNl + 1 - HASH_WINDOW), lastNl + 1);
      offset += lastNl + 1;
      out.append(new String(buf, 0, lastNl + 1, StandardCharsets.UTF_8));
      return out.toString();
    }
  }

  /** The rest of a rotated file from {@code from}, a last line without newline included (it will not grow). */
  private static String readRest(Path old, long from) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(old.toFile(), "r")) {
      long len = Math.min(Math.max(0, raf.length() - from), 16L << 20);
      byte[] buf = new byte[(int) len];
      raf.seek(from);
      raf.readFully(buf);
      String s = new String(buf, StandardCharsets.UTF_8);
      return s.isEmpty() || s.endsWith("\n") ? s : s + "\n";
    }
  }

  /** The sibling of the followed file (e.g. kern.log.1) that has this identity; compressed ones are skipped. */
  private Path findByKey(String key) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    String base = file.getFileName().toString();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String n = p.getFileName().toString();
        if (!n.startsWith(base) || n.equals(base) || n.endsWith(".gz") || n.endsWith(".xz") || n.endsWith(".zst")) continue;
        try {
          if (key(Files.readAttributes(p, BasicFileAttributes.class)).equals(key)) return p;
        } catch (IOException gone) {
          // rotated away meanwhile
        }
      }
    }
    return null;
  }

  private static boolean matches(Path f, Position p) throws IOException {
    return Files.size(f) >= p.offset() && hashOfLineBefore(f, p.offset()) == p.lastLineHash();
  }

  /** Hash of the line that ends at {@code offset} (its last 64 KiB); 0 at offset 0. */
  static long hashOfLineBefore(Path f, long offset) throws IOException {
    if (offset <= 0) return 0;
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
      if (raf.length() < offset) return -1;
      int len = (int) Math.min(offset, HASH_WINDOW);
      byte[] buf = new byte[len];
      raf.seek(offset - len);
      raf.readFully(buf);
      int start = lastIndexOf(buf, len - 2) + 1;
      return hash(buf, start, len);
    }
  }

  private static int lastIndexOf(byte[] b, int from) {
    for (int i = from; i >= 0; i--) if (b[i] == '\n') return i;
    return -1;
  }

  private static long hash(byte[] b, int from, int to) {
    CRC32 c = new CRC32();
    c.update(b, from, to - from);
    return c.getValue();
  }

  private static String key(BasicFileAttributes a) {
    return a.fileKey() == null ? "none" : a.fileKey().toString().replace(' ', '_');
  }
}
