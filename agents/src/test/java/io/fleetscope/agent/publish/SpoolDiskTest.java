package io.fleetscope.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spool on a disk that fills up (simulated ENOSPC, see {@link SmallDisk}) and its fsync policy. */
class SpoolDiskTest {

  static List<Long> readAll(Spool s) throws Exception {
    List<Long> out = new ArrayList<>();
    Spool.Position p = s.acked();
    while (true) {
      List<Spool.Read> r = s.read(p, 1000, 64 << 20, 0);
      if (r.isEmpty()) return out;
      for (Spool.Read x : r) out.add(x.entry().seq());
      p = r.get(r.size() - 1).next();
    }
  }

  @Test
  void aFullDiskDropsTheOldestSegmentsCountsThemAndKeepsTheNewestReadable(@TempDir Path dir) throws Exception {
    // max_bytes 1 MiB, but the disk holds only ~20 KiB: the disk fills long before the spool limit
    SmallDisk disk = new SmallDisk(dir, 20_000);
    AtomicLong dropped = new AtomicLong();
    AtomicInteger noSpace = new AtomicInteger();
    try (Spool s = new Spool(dir, 1 << 20, 4096, dropped::addAndGet,
        new Spool.Options(Duration.ZERO, disk, noSpace::incrementAndGet))) {
      for (long seq = 1; seq <= 200; seq++) s.append(List.of(SpoolTest.entry(seq, 500)));   // ~100 KB of appends
      assertThat(disk.refusedWrites.get()).as("the disk did fill").isPositive();
      assertThat(noSpace.get()).isEqualTo(disk.refusedWrites.get());
      List<Long> left = readAll(s);
      assertThat(left).as("what is left: the newest records, contiguous, ending with the last one").isNotEmpty().endsWith(200L);
      assertThat(left.get(left.size() - 1) - left.get(0) + 1).isEqualTo(left.size());
      assertThat(dropped.get() + left.size()).as("every record either still spooled or counted as dropped").isEqualTo(200);
      assertThat(disk.used()).isLessThanOrEqualTo(20_000);
    }
    try (Spool s = new Spool(dir, 1 << 20, 4096, n -> { })) {
      assertThat(readAll(s)).as("no torn entry left behind: the restart reads the same records").endsWith(200L);
    }
  }

  @Test
  void aDiskTooFullForEvenOneEntryDropsTheNewRecordsCountedWithoutThrowing(@TempDir Path dir) throws Exception {
    SmallDisk disk = new SmallDisk(dir, 0);
    AtomicLong dropped = new AtomicLong();
    try (Spool s = new Spool(dir, 1 << 20, 4096, dropped::addAndGet, new Spool.Options(Duration.ZERO, disk, () -> { }))) {
      s.append(List.of(SpoolTest.entry(1, 100), SpoolTest.entry(2, 100)));
      assertThat(dropped.get()).isEqualTo(2);
      assertThat(readAll(s)).isEmpty();
      disk.capacity = 1 << 20;   // space again (e.g. logs rotated away)
      s.append(List.of(SpoolTest.entry(3, 100)));
      assertThat(readAll(s)).containsExactly(3L);
    }
  }

  @Test
  void publisherCountsDiskFullDropsOnItsMetrics(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    SmallDisk disk = new SmallDisk(dir, 30_000);
    try (Publisher p = new Publisher(dir, 1 << 20, 4096, m, new Spool.Options(Duration.ofSeconds(1), disk, () -> { }))) {
      for (int round = 0; round < 100; round++) p.accept("xid", KafkaSenderTest.xids(10));
      assertThat(m.get(Publisher.DROPPED, "")).isPositive();
      assertThat(m.get(Publisher.NO_SPACE, "")).isPositive();
      assertThat(m.get(Publisher.DROPPED, "") + p.spool().pending()).isEqualTo(1000);
    }
  }

  @Test
  void forcesOnEveryAppendWithZeroIntervalAndAtMostOncePerIntervalOtherwise(@TempDir Path dir) throws Exception {
    SmallDisk every = new SmallDisk(dir.resolve("a"), 1 << 30);
    Files.createDirectories(every.dir);
    try (Spool s = new Spool(every.dir, 1 << 20, 1 << 16, n -> { }, new Spool.Options(Duration.ZERO, every, () -> { }))) {
      for (long seq = 1; seq <= 50; seq++) s.append(List.of(SpoolTest.entry(seq, 100)));
      assertThat(every.forces.get()).isGreaterThanOrEqualTo(50);
    }
    SmallDisk bounded = new SmallDisk(dir.resolve("b"), 1 << 30);
    Files.createDirectories(bounded.dir);
    try (Spool s = new Spool(bounded.dir, 1 << 20, 1 << 16, n -> { }, new Spool.Options(Duration.ofMillis(300), bounded, () -> { }))) {
      for (long seq = 1; seq <= 50; seq++) s.append(List.of(SpoolTest.entry(seq, 100)));
      int inBurst = bounded.forces.get();
      assertThat(inBurst).as("one burst within the interval: at most one force").isLessThanOrEqualTo(1);
      long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (bounded.forces.get() == inBurst && System.nanoTime() < end) Thread.sleep(20);
      assertThat(bounded.forces.get()).as("the burst's tail forced by the background sync within the interval").isEqualTo(inBurst + 1);
    }
  }

  @Test
  void anAgentSeqFileBehindTheSpoolAfterAPowerLossIsAdvancedPastIt(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    try (Publisher p = new Publisher(dir, 1 << 20, 4096, m)) {
      p.accept("xid", KafkaSenderTest.xids(10));   // agent_seq 1..10 spooled
    }
    Files.writeString(dir.resolve("agent_seq"), "4");   // the old file came back (rename lost)
    SelfMetrics after = new SelfMetrics();
    try (Publisher p = new Publisher(dir, 1 << 20, 4096, after)) {
      assertThat(after.get(Publisher.SEQ, "")).isEqualTo(11);
      p.accept("xid", KafkaSenderTest.xids(1));
      assertThat(readAll(p.spool())).as("no agent_seq twice").containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
    }
    assertThat(Files.readString(dir.resolve("agent_seq")).strip()).isEqualTo("12");
  }
}
