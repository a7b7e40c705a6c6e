package io.fleetscope.agent.publish;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded, append-only on-disk queue of records, in segment files. Every record is appended here
 * before it is sent; the sender reads in order and acknowledges what the broker has acked, so
 * records survive a broker outage and an agent restart and are sent in order after recovery. When
 * the spool would grow past its size limit, the oldest segment is deleted: its unacknowledged
 * records are counted as dropped and a log line says how many.
 *
 * <p>Durability: the active segment is forced to disk ({@link FileChannel#force}) when it is rolled,
 * and otherwise at most {@code syncInterval} after an append (at once when the last force is older
 * than that, else by the background sync). A power loss can lose at most the records appended in
 * the last {@code syncInterval}; the sender's position file is not forced (after a power loss a
 * batch may be sent again: duplicates by agent_seq, never a loss).
 *
 * <p>A full disk ({@code No space left on device} on a write) never fails the caller: the partial
 * write is cut off, the oldest segments are dropped (their unsent records counted) until the write
 * fits, and when nothing older is left the new records themselves are dropped and counted.
 *
 * <p>Entry layout: {@code int length, int crc32(body), body}; body = topic, key (UTF), seq,
 * schema fingerprint (longs), avro length and bytes. A torn entry at the tail (crash mid-write) is
 * cut off at start.
 *
 * <p>Marks: an append may carry a {@link Mark}, a collector's state (e.g. how far it has read a log)
 * written in the same write as the records it produced, just before them, as an entry with an empty
 * topic whose seq field holds the number of records that follow. The mark and its records are one
 * unit: a torn tail that cuts into the records cuts the mark off too, so after any crash the spool
 * holds either the records and the state that produced them, or neither. The newest mark of every
 * owner is kept in memory ({@link #mark}); at every segment roll they are written (forced, then
 * renamed) to the {@code marks} file together with the segment they are current up to, so marks
 * survive the deletion of sent segments; at start the marks file is read and the segments after it
 * are scanned. Marks are never sent ({@link SpoolEntry#isMark}) nor counted as records.
 */
public final class Spool implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Spool.class);
  private static final String SUFFIX = ".spool";

  /** Where the sender is: segment id and byte offset in it. */
  public record Position(long segment, long offset) implements Comparable<Position> {
    @Override
    public int compareTo(Position o) {
      int c = Long.compare(segment, o.segment);
      return c != 0 ? c : Long.compare(offset, o.offset);
    }
  }

  /** Opens a segment file (the real file system, or a wrapper in tests that simulates a full disk). */
  public interface Opener {
    FileChannel open(Path file, java.nio.file.OpenOption... options) throws IOException;
  }

  /**
   * @param syncInterval how long appended records may stay unforced (0: force on every append)
   * @param onNoSpace called once per write that met a full disk
   */
  public record Options(java.time.Duration syncInterval, Opener opener, Runnable onNoSpace) {
    public static Options defaults() {
      return new Options(java.time.Duration.ofSeconds(1), FileChannel::open, () -> { });
    }
  }

  /** An entry read back with the position just after it (acknowledge that position once sent). */
  public record Read(SpoolEntry entry, Position next) {}

  /** A collector's state kept with the records of its round: {@code owner} is the collector's name. */
  public record Mark(String owner, String state) {}

  private static final String MARKS = "marks";
  /** The newest mark of each owner (in the marks file or the segments after it). */
  private final java.util.Map<String, String> marks = new java.util.TreeMap<>();

  private final Path dir;
  private final long maxBytes;
  private final long segmentBytes;
  private final LongConsumer onDropped;
  private final Options options;
  private long lastSyncNanos = System.nanoTime();
  private boolean dirty;
  private Thread syncer;
  private volatile boolean closed;
  private final TreeMap<Long, Long> segmentSizes = new TreeMap<>();
  private FileChannel active;
  private long activeId;
  private Position acked;
  private long totalBytes;

  /**
   * @param onDropped called with the number of unacknowledged records lost when the oldest segment
   *     is deleted because the spool is full
   */
  public Spool(Path dir, long maxBytes, long segmentBytes, LongConsumer onDropped) throws IOException {
    this(dir, maxBytes, segmentBytes, onDropped, Options.defaults());
  }

  public Spool(Path dir, long maxBytes, long segmentBytes, LongConsumer onDropped, Options options) throws IOException {
    this.options = options;
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.segmentBytes = segmentBytes;
    this.onDropped = onDropped;
    Files.createDirectories(dir);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String n = p.getFileName().toString();
        if (n.endsWith(SUFFIX)) segmentSizes.put(Long.parseLong(n.substring(0, n.length() - SUFFIX.length())), Files.size(p));
      }
    }
    acked = readPosition();
    if (segmentSizes.isEmpty()) {
      activeId = Math.max(1, acked.segment());
      segmentSizes.put(activeId, 0L);
    } else {
      activeId = segmentSizes.lastKey();
      truncateTornTail(activeId);
    }
    recoverMarks();
    if (acked.segment() < segmentSizes.firstKey()) acked = new Position(segmentSizes.firstKey(), 0);
    active = openSegment(activeId);
    totalBytes = segmentSizes.values().stream().mapToLong(Long::longValue).sum();
    deleteAckedSegments();
    if (options.syncInterval().toMillis() > 0) {
      syncer = new Thread(this::syncLoop, "spool-sync");
      syncer.setDaemon(true);
      syncer.start();
    }
  }

  private FileChannel openSegment(long id) throws IOException {
    return options.opener().open(segment(id), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
  }

  /** Forces what was appended since the last force, at most {@code syncInterval} after it was appended. */
  private void syncLoop() {
    long ms = options.syncInterval().toMillis();
    while (!closed) {
      try {
        Thread.sleep(ms);
        syncIfDirty();
      } catch (InterruptedException e) {
        return;
      } catch (IOException e) {
        log.warn("spool sync failed error={}", e.getMessage());
      }
    }
  }

  /** Forces the active segment to disk if anything was appended since the last force. */
  public synchronized void syncIfDirty() throws IOException {
    if (!dirty || closed) return;
    active.force(false);
    dirty = false;
    lastSyncNanos = System.nanoTime();
  }

  private Path segment(long id) {
    return dir.resolve(String.format("%020d%s", id, SUFFIX));
  }

  /**
   * Appends entries in order (one write per call) and makes room by dropping the oldest segments.
   * A full disk is handled here (oldest data dropped, counted); other I/O errors are thrown.
   */
  public synchronized void append(List<SpoolEntry> entries) throws IOException {
    append(entries, null);
  }

  /**
   * {@link #append(List)} with {@code mark} (null: none) in the same write, just before the entries:
   * after a crash at any point the spool has both or neither. A mark may come with no entries.
   */
  public synchronized void append(List<SpoolEntry> entries, Mark mark) throws IOException {
    if (entries.isEmpty() && mark == null) return;
    ByteArrayOutputStream buf = new ByteArrayOutputStream(256 * (entries.size() + 1));
    if (mark != null) encode(markEntry(mark, entries.size()), buf);
    for (SpoolEntry e : entries) encode(e, buf);
    byte[] bytes = buf.toByteArray();
    if (segmentSizes.get(activeId) > 0 && segmentSizes.get(activeId) + bytes.length > segmentBytes) roll();
    while (!write(bytes)) {
      options.onNoSpace().run();
      if (!makeRoom()) {
        log.warn("spool disk full, new records dropped records={} segment={} spool_bytes={}", entries.size(), activeId, totalBytes);
        onDropped.accept(entries.size());
        return;
      }
    }
    segmentSizes.merge(activeId, (long) bytes.length, Long::sum);
    totalBytes += bytes.length;
    if (mark != null) marks.put(mark.owner(), mark.state());
    while (totalBytes > maxBytes && segmentSizes.size() > 1) dropOldest("spool_full");
    dirty = true;
    if (System.nanoTime() - lastSyncNanos >= options.syncInterval().toNanos()) syncIfDirty();
    notifyAll();
  }

  /** Writes at the end of the active segment; false (partial write cut off) when the disk is full. */
  private boolean write(byte[] bytes) throws IOException {
    long at = segmentSizes.get(activeId);
    ByteBuffer bb = ByteBuffer.wrap(bytes);
    try {
      while (bb.hasRemaining()) active.write(bb, at + bb.position());
      return true;
    } catch (IOException e) {
      try {
        active.truncate(at);
      } catch (IOException ignored) {
        // the torn tail is cut off at the next start instead
      }
      if (noSpace(e)) return false;
      throw e;
    }
  }

  /** Drops the oldest data (counted) to free disk space for someone else's write; false when there is none. */
  public synchronized boolean freeSpace() throws IOException {
    return makeRoom();
  }

  /** Frees disk space for a write that met a full disk: drops the oldest data; false when there is none. */
  private boolean makeRoom() throws IOException {
    if (segmentSizes.size() > 1) {
      dropOldest("disk_full");
      return true;
    }
    if (segmentSizes.get(activeId) > 0) {
      roll();
      dropOldest("disk_full");
      return true;
    }
    return false;
  }

  static boolean noSpace(IOException e) {
    String m = e.getMessage();
    return m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded"));
  }

  private void roll() throws IOException {
    try {
      active.force(false);
      dirty = false;
      lastSyncNanos = System.nanoTime();
    } catch (IOException e) {
      // e.g. a full disk refusing delayed allocation: the segment's tail may be lost on power loss
      log.warn("spool segment not forced at roll segment={} error={}", activeId, e.getMessage());
    }
    writeMarks(activeId);
    active.close();
    activeId++;
    segmentSizes.put(activeId, 0L);
    active = openSegment(activeId);
  }

  private void dropOldest(String why) throws IOException {
    long id = segmentSizes.firstKey();
    long from = acked.segment() == id ? acked.offset() : (acked.segment() > id ? Long.MAX_VALUE : 0);
    long lost = from == Long.MAX_VALUE ? 0 : countEntries(id, from);
    long size = segmentSizes.remove(id);
    totalBytes -= size;
    Files.deleteIfExists(segment(id));
    if (acked.segment() <= id) {
      acked = new Position(segmentSizes.firstKey(), 0);
      writePosition(acked);
    }
    if (lost > 0) {
      log.warn("spool oldest records dropped reason={} records={} segment={} max_bytes={}", why, lost, id, maxBytes);
      onDropped.accept(lost);
    }
  }

  /** Waits up to {@code millis} for entries after {@code from}; returns at most {@code max} of them. */
  public synchronized List<Read> read(Position from, int max, long maxBytesToRead, long millis) throws IOException, InterruptedException {
    if (from.compareTo(new Position(segmentSizes.firstKey(), 0)) < 0) from = new Position(segmentSizes.firstKey(), 0);
    if (!hasAfter(from) && millis > 0) wait(millis);
    if (from.compareTo(new Position(segmentSizes.firstKey(), 0)) < 0) from = new Position(segmentSizes.firstKey(), 0);
    List<Read> out = new ArrayList<>();
    long bytes = 0;
    Position p = from;
    while (out.size() < max && bytes < maxBytesToRead && hasAfter(p)) {
      Long size = segmentSizes.get(p.segment());
      if (size == null || p.offset() >= size) {
        Long nextSeg = segmentSizes.higherKey(p.segment());
        if (nextSeg == null) break;
        p = new Position(nextSeg, 0);
        continue;
      }
      try (FileChannel ch = FileChannel.open(segment(p.segment()), StandardOpenOption.READ)) {
        ch.position(p.offset());
        DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(java.nio.channels.Channels.newInputStream(ch), 65536));
        long off = p.offset();
        while (off < size && out.size() < max && bytes < maxBytesToRead) {
          int len = in.readInt();
          int crc = in.readInt();
          byte[] body = new byte[len];
          in.readFully(body);
          off += 8 + len;
          bytes += len;
          out.add(new Read(decode(body, crc, p.segment()), new Position(p.segment(), off)));
        }
        p = new Position(p.segment(), off);
      }
    }
    return out;
  }

  private boolean hasAfter(Position p) {
    Long size = segmentSizes.get(p.segment());
    if (size != null && p.offset() < size) return true;
    var tail = segmentSizes.tailMap(p.segment(), false);
    return tail.values().stream().anyMatch(s -> s > 0);
  }

  /** Records that everything before {@code upTo} was delivered; fully delivered segments are deleted. */
  public synchronized void ack(Position upTo) throws IOException {
    if (upTo.compareTo(acked) <= 0) return;
    acked = upTo;
    // one position write per acknowledgement; a crash after deleting a segment and before the write
    // restarts from the first remaining segment: that batch is sent again (duplicates, visible by
    // agent_seq), never lost - as for a crash between the broker's ack and the position write
    if (!deleteAckedSegments()) writePosition(acked);
  }

  public synchronized Position acked() {
    return acked;
  }

  public synchronized long bytes() {
    return totalBytes;
  }

  /** Entries not yet acknowledged (scans the files: for tests and the shutdown log line). */
  public synchronized long pending() throws IOException {
    long n = 0;
    for (long id : segmentSizes.keySet()) {
      if (id < acked.segment()) continue;
      n += countEntries(id, id == acked.segment() ? acked.offset() : 0);
    }
    return n;
  }

  /** Deletes fully acknowledged segments; true when it also wrote the position (drained: fresh segment). */
  private boolean deleteAckedSegments() throws IOException {
    while (segmentSizes.size() > 1 && segmentSizes.firstKey() < acked.segment()) {
      long id = segmentSizes.pollFirstEntry().getKey();
      totalBytes -= Files.exists(segment(id)) ? Files.size(segment(id)) : 0;
      Files.deleteIfExists(segment(id));
    }
    if (acked.segment() == activeId && acked.offset() == segmentSizes.get(activeId) && acked.offset() > 0 && segmentSizes.size() == 1) {
      // everything sent: start a fresh segment so the old one can go
      roll();
      long old = segmentSizes.firstKey();
      totalBytes -= segmentSizes.remove(old);
      Files.deleteIfExists(segment(old));
      acked = new Position(activeId, 0);
      writePosition(acked);
      return true;
    }
    return false;
  }

  private long countEntries(long id, long from) throws IOException {
    long size = segmentSizes.getOrDefault(id, 0L);
    long n = 0;
    try (FileChannel ch = FileChannel.open(segment(id), StandardOpenOption.READ)) {
      ByteBuffer hdr = ByteBuffer.allocate(10);   // length, crc, the topic's UTF length (0: a mark)
      long off = from;
      while (off + 8 <= size) {
        hdr.clear();
        ch.read(hdr, off);
        hdr.flip();
        int len = hdr.getInt();
        hdr.getInt();
        if (hdr.remaining() < 2 || hdr.getShort() != 0) n++;
        off += 8 + len;
      }
    }
    return n;
  }

  private void truncateTornTail(long id) throws IOException {
    Path p = segment(id);
    long size = Files.size(p);
    long good = 0;
    long batchStart = 0;    // where the last mark begins
    long batchLeft = 0;     // records of its batch not yet seen
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(java.nio.channels.Channels.newInputStream(ch), 65536));
      try {
        while (good < size) {
          int len = in.readInt();
          int crc = in.readInt();
          if (len < 0 || good + 8 + len > size) break;
          byte[] body = new byte[len];
          in.readFully(body);
          if (crc32(body) != crc) break;
          SpoolEntry e = decode(body, crc, id);
          if (e.isMark()) {
            batchStart = good;
            batchLeft = e.seq();
          } else if (batchLeft > 0) {
            batchLeft--;
          }
          good += 8 + len;
        }
      } catch (EOFException e) {
        // torn tail
      }
      if (batchLeft > 0) {
        // the tail cut into a marked batch: drop its mark and the records it kept, the collector reads them again
        log.warn("spool torn batch truncated segment={} records_missing={}", id, batchLeft);
        good = batchStart;
      }
      if (good < size) {
        log.warn("spool torn tail truncated segment={} bytes={}", id, size - good);
        ch.truncate(good);
      }
    }
    segmentSizes.put(id, good);
  }

  /** The newest state {@code owner} appended with {@link #append(List, Mark)}, or null when it never did. */
  public synchronized String mark(String owner) {
    return marks.get(owner);
  }

  /** Reads the marks file, then the marks of the segments written after it. */
  private void recoverMarks() throws IOException {
    long asOf = 0;
    Path f = dir.resolve(MARKS);
    if (Files.exists(f)) {
      List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
      try {
        asOf = Long.parseLong(lines.get(0).substring("as_of_segment=".length()));
        for (String line : lines.subList(1, lines.size())) {
          int sp = line.indexOf(' ');
          marks.put(line.substring(0, sp), new String(java.util.Base64.getDecoder().decode(line.substring(sp + 1)), StandardCharsets.UTF_8));
        }
      } catch (RuntimeException e) {
        throw new IOException("corrupt " + f + " (" + e.getMessage() + "); remove it to let collectors start from their configured start");
      }
    }
    for (long id : segmentSizes.tailMap(asOf, false).keySet()) {
      if (segmentSizes.get(id) == 0) continue;
      for (SpoolEntry e : readSegmentFile(segment(id))) {
        if (e.isMark()) marks.put(e.key(), new String(e.avro(), StandardCharsets.UTF_8));
      }
    }
  }

  /**
   * Keeps the marks current up to the end of segment {@code upTo} in the marks file (forced, then
   * renamed), before that segment may be deleted. A failure (e.g. a full disk) is logged: the
   * older marks file stays, and a restart may read a collector's lines again.
   */
  private void writeMarks(long upTo) {
    if (marks.isEmpty()) return;
    StringBuilder b = new StringBuilder("as_of_segment=").append(upTo).append('\n');
    marks.forEach((owner, state) -> b.append(owner).append(' ')
        .append(java.util.Base64.getEncoder().encodeToString(state.getBytes(StandardCharsets.UTF_8))).append('\n'));
    Path tmp = dir.resolve(MARKS + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer bb = ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8));
        while (bb.hasRemaining()) ch.write(bb);
        ch.force(false);
      }
      Files.move(tmp, dir.resolve(MARKS), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      log.warn("spool marks not saved segment={} error={}", upTo, e.getMessage());
    }
  }

  private Position readPosition() throws IOException {
    Path f = dir.resolve("position");
    if (!Files.exists(f)) return new Position(0, 0);
    String[] parts = Files.readString(f, StandardCharsets.UTF_8).trim().split("\\s+");
    if (parts.length != 2) throw new IOException("corrupt " + f + ": expected 'segment offset'");
    return new Position(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
  }

  private void writePosition(Position p) throws IOException {
    Path f = dir.resolve("position");
    Path tmp = dir.resolve("position.tmp");
    Files.writeString(tmp, p.segment() + " " + p.offset(), StandardCharsets.UTF_8);
    Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** A mark as an entry: empty topic, the owner as key, the number of records that follow as seq, the state as body. */
  private static SpoolEntry markEntry(Mark m, int records) {
    if (m.owner().isEmpty() || m.owner().contains(" ") || m.owner().contains("\n")) {
      throw new IllegalArgumentException("mark owner must be a non-empty word, got '" + m.owner() + "'");
    }
    return new SpoolEntry("", m.owner(), records, 0, m.state().getBytes(StandardCharsets.UTF_8));
  }

  static void encode(SpoolEntry e, ByteArrayOutputStream to) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream(64 + e.avro().length);
    DataOutputStream d = new DataOutputStream(body);
    d.writeUTF(e.topic());
    d.writeUTF(e.key() == null ? "" : e.key());
    d.writeLong(e.seq());
    d.writeLong(e.schemaFingerprint());
    d.writeInt(e.avro().length);
    d.write(e.avro());
    byte[] b = body.toByteArray();
    DataOutputStream out = new DataOutputStream(to);
    out.writeInt(b.length);
    out.writeInt(crc32(b));
    out.write(b);
  }

  /** The highest agent_seq in the spool (its newest non-empty segment), or 0 when empty. Scans a segment: for start only. */
  public synchronized long lastSeq() throws IOException {
    for (long id : segmentSizes.descendingKeySet()) {
      if (segmentSizes.get(id) == 0) continue;
      long max = 0;   // a mark's seq field is a count, not an agent_seq
      for (SpoolEntry e : readSegmentFile(segment(id))) if (!e.isMark()) max = Math.max(max, e.seq());
      return max;
    }
    return 0;
  }

  /**
   * The complete entries of one segment file, read without a Spool (for inspection while an agent
   * writes it: a torn or growing tail is left out).
   */
  public static List<SpoolEntry> readSegmentFile(Path file) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(file));
    List<SpoolEntry> out = new ArrayList<>();
    while (bb.remaining() >= 8) {
      int len = bb.getInt();
      int crc = bb.getInt();
      if (len < 0 || len > bb.remaining()) break;
      byte[] body = new byte[len];
      bb.get(body);
      if (crc32(body) != crc) break;
      out.add(decode(body, crc, 0));
    }
    return out;
  }

  static SpoolEntry decode(byte[] body, int crc, long segment) throws IOException {
    if (crc32(body) != crc) throw new IOException("spool segment " + segment + " has a corrupt entry (crc mismatch)");
    DataInputStream d = new DataInputStream(new java.io.ByteArrayInputStream(body));
    String topic = d.readUTF();
    String key = d.readUTF();
    long seq = d.readLong();
    long fp = d.readLong();
    byte[] avro = new byte[d.readInt()];
    d.readFully(avro);
    return new SpoolEntry(topic, key, seq, fp, avro);
  }

  private static int crc32(byte[] b) {
    CRC32 c = new CRC32();
    c.update(b);
    return (int) c.getValue();
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) return;
    closed = true;
    if (syncer != null) syncer.interrupt();
    if (dirty) active.force(false);
    active.close();
  }
}
