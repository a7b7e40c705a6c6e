package io.fleetscope.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTest {
  static SpoolEntry entry(long seq, int size) {
    return new SpoolEntry(Topics.GPU, "node-a", seq, 42L, new byte[size]);
  }

  static List<Long> seqs(List<Spool.Read> reads) {
    return reads.stream().map(r -> r.entry().seq()).toList();
  }

  @Test
  void readsInOrderAcksAndSurvivesRestart(@TempDir Path dir) throws Exception {
    try (Spool s = new Spool(dir, 1 << 20, 4096, n -> { })) {
      s.append(List.of(entry(1, 10), entry(2, 10), entry(3, 10)));
      List<Spool.Read> r = s.read(s.acked(), 2, 1 << 20, 0);
      assertThat(seqs(r)).containsExactly(1L, 2L);
      s.ack(r.get(1).next());
      assertThat(s.pending()).isEqualTo(1);
    }
    try (Spool s = new Spool(dir, 1 << 20, 4096, n -> { })) {
      assertThat(seqs(s.read(s.acked(), 10, 1 << 20, 0))).as("after restart: only the unacked one").containsExactly(3L);
    }
  }

  @Test
  void rollsSegmentsAndDeletesAckedOnes(@TempDir Path dir) throws Exception {
    try (Spool s = new Spool(dir, 1 << 20, 4096, n -> { })) {
      for (long i = 1; i <= 40; i++) s.append(List.of(entry(i, 500)));
      long files = Files.list(dir).filter(p -> p.toString().endsWith(".spool")).count();
      assertThat(files).isGreaterThan(3);
      List<Spool.Read> all = new ArrayList<>();
      Spool.Position pos = s.acked();
      while (true) {
        List<Spool.Read> r = s.read(pos, 7, 1 << 20, 0);
        if (r.isEmpty()) break;
        all.addAll(r);
        pos = r.get(r.size() - 1).next();
      }
      assertThat(seqs(all)).hasSize(40).isSorted().startsWith(1L).endsWith(40L);
      s.ack(pos);
      assertThat(s.pending()).isZero();
      assertThat(Files.list(dir).filter(p -> p.toString().endsWith(".spool")).count()).isEqualTo(1);
    }
  }

  @Test
  void whenFullTheOldestAreDroppedAndCounted(@TempDir Path dir) throws Exception {
    AtomicLong dropped = new AtomicLong();
    try (Spool s = new Spool(dir, 8192, 4096, dropped::addAndGet)) {
      // ~1 KiB entries, 4 per segment; 2 segments fit
      for (long i = 1; i <= 20; i++) s.append(List.of(entry(i, 1000)));
      assertThat(s.bytes()).isLessThanOrEqualTo(8192);
      List<Spool.Read> left = s.read(s.acked(), 100, 1 << 20, 0);
      assertThat(dropped.get() + left.size()).as("every record is either still spooled or counted as dropped").isEqualTo(20);
      assertThat(dropped.get()).isPositive();
      assertThat(seqs(left)).as("the newest survive, in order").isSorted().endsWith(20L);
      assertThat(seqs(left).get(0)).isEqualTo(dropped.get() + 1);
    }
  }

  @Test
  void tornTailIsCutOffAtStart(@TempDir Path dir) throws Exception {
    try (Spool s = new Spool(dir, 1 << 20, 1 << 16, n -> { })) {
      s.append(List.of(entry(1, 10), entry(2, 10)));
    }
    Path seg = Files.list(dir).filter(p -> p.toString().endsWith(".spool")).findFirst().orElseThrow();
    Files.write(seg, new byte[] {0, 0, 0, 50, 1, 2}, StandardOpenOption.APPEND); // a crash mid-write
    try (Spool s = new Spool(dir, 1 << 20, 1 << 16, n -> { })) {
      assertThat(seqs(s.read(s.acked(), 10, 1 << 20, 0))).containsExactly(1L, 2L);
      s.append(List.of(entry(3, 10)));
      assertThat(seqs(s.read(s.acked(), 10, 1 << 20, 0))).containsExactly(1L, 2L, 3L);
    }
  }

  @Test
  void publisherStampsMonotonicSeqPersistedAcrossRestarts(@TempDir Path dir) throws Exception {
    List<AgentRecord> two = List.of(xid(), xid());
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, new SelfMetrics())) {
      p.accept("xid", two);
      assertThat(two).extracting(r -> ((GpuXid) r.value()).getAgentSeq()).containsExactly(1L, 2L);
    }
    List<AgentRecord> more = List.of(xid());
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, new SelfMetrics())) {
      p.accept("xid", more);
      assertThat(((GpuXid) more.get(0).value()).getAgentSeq()).isEqualTo(3L);
      List<Spool.Read> r = p.spool().read(p.spool().acked(), 10, 1 << 20, 0);
      assertThat(seqs(r)).containsExactly(1L, 2L, 3L);
      GpuXid back = (GpuXid) RecordCodec.decode(r.get(2).entry());
      assertThat(back.getAgentSeq()).isEqualTo(3L);
      assertThat(back.getMessage()).isEqualTo("Channel ID 00000009 intr 00800000");
    }
  }

  static AgentRecord xid() {
    return new AgentRecord(Topics.GPU_XID, "node-a", GpuXid.newBuilder().setTs(1L).setCluster("c").setNode("node-a").setAgentSeq(0L)
        .setXid(32).setMessage("Channel ID 00000009 intr 00800000").build());
  }

  static Spool.Mark mark(String state) {
    return new Spool.Mark("xid", state);
  }

  @Test
  void aMarkIsNotARecordAndTheNewestPerOwnerSurvivesRollsDeletionAndRestarts(@TempDir Path dir) throws Exception {
    try (Spool s = new Spool(dir, 1 << 20, 4096, n -> { })) {
      s.append(List.of(entry(1, 10), entry(2, 10)), mark("a"));
      s.append(List.of(), new Spool.Mark("other", "x"));
      assertThat(s.pending()).as("marks are not counted").isEqualTo(2);
      for (long i = 3; i <= 30; i++) s.append(List.of(entry(i, 500)), mark("p" + i));   // several rolls
      Spool.Position end = s.acked();
      for (List<Spool.Read> r; !(r = s.read(end, 100, 1 << 20, 0)).isEmpty(); ) end = r.get(r.size() - 1).next();
      s.ack(end);
      assertThat(s.pending()).isZero();
      assertThat(s.mark("xid")).isEqualTo("p30");
    }
    try (Spool s = new Spool(dir, 1 << 20, 4096, n -> { })) {
      assertThat(s.mark("xid")).as("the segments holding it are deleted: from the marks file").isEqualTo("p30");
      assertThat(s.mark("other")).isEqualTo("x");
      s.append(List.of(entry(31, 10)), mark("p31"));
    }
    try (Spool s = new Spool(dir, 1 << 20, 4096, n -> { })) {
      assertThat(s.mark("xid")).as("newer than the marks file: from the active segment").isEqualTo("p31");
      assertThat(s.mark("nobody")).isNull();
    }
  }

  @Test
  void aTornTailInsideAMarkedBatchDropsTheWholeBatchAndItsMark(@TempDir Path dir) throws Exception {
    try (Spool s = new Spool(dir, 1 << 20, 1 << 16, n -> { })) {
      s.append(List.of(entry(1, 10)), mark("first"));
      s.append(List.of(entry(2, 10), entry(3, 10), entry(4, 10)), mark("second"));
    }
    Path seg;
    try (var files = Files.list(dir)) {
      seg = files.filter(p -> p.toString().endsWith(".spool")).findFirst().orElseThrow();
    }
    // killed mid-write: the mark and records 2 and 3 of the second batch reached the file, 4 only in part
    try (var ch = java.nio.channels.FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(Files.size(seg) - 5);
    }
    try (Spool s = new Spool(dir, 1 << 20, 1 << 16, n -> { })) {
      assertThat(s.mark("xid")).as("the state before the torn batch").isEqualTo("first");
      List<Spool.Read> r = s.read(s.acked(), 10, 1 << 20, 0);
      assertThat(r).hasSize(2);
      assertThat(r.get(0).entry().isMark()).isTrue();
      assertThat(r.get(1).entry().seq()).isEqualTo(1L);
      assertThat(s.pending()).isEqualTo(1);
    }
  }
}
