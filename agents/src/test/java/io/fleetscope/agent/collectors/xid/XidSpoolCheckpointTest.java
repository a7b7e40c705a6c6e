package io.fleetscope.agent.collectors.xid;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.agent.publish.Publisher;
import io.fleetscope.agent.publish.RecordCodec;
import io.fleetscope.agent.publish.Spool;
import io.fleetscope.agent.publish.SpoolEntry;
import io.fleetscope.agent.schedule.Scheduler;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once across a kill at a chosen point, deterministically: the real scheduler, publisher and
 * spool, and an XID collector whose round is cut off (an agent killed) right after the spool append
 * and before the collector hears of it, or in the middle of the spool write. A new agent on the same
 * spool and log must spool every XID line once. XidRestartIT does the same with a real SIGKILL at
 * a random moment.
 */
class XidSpoolCheckpointTest {
  static String line(int pid) {
    return "2026-11-30T12:00:0" + (pid % 10) + "+00:00 n kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=" + pid + ", name=p, off the bus.\n";
  }

  /** The agent is killed after the spool append of the round, before anything else runs: committed() never returns. */
  static final class KilledAfterSpool implements Collector {
    final Collector inner;

    KilledAfterSpool(Collector inner) {
      this.inner = inner;
    }

    public String name() {
      return inner.name();
    }

    public void restore(String checkpoint) throws Exception {
      inner.restore(checkpoint);
    }

    public List<AgentRecord> collect(CollectContext ctx) throws Exception {
      return inner.collect(ctx);
    }

    public String checkpoint() throws Exception {
      return inner.checkpoint();
    }

    public void committed() throws IOException {
      throw new IOException("killed between the spool append and the collector's commit");
    }
  }

  static void round(Collector c, Publisher p) throws Exception {
    try (Scheduler s = new Scheduler(List.of(new Scheduler.Job(c, Duration.ofSeconds(1), Duration.ofSeconds(10))), "c", "n",
        Clock.systemUTC(), new SelfMetrics())) {
      assertThat(s.runOnce(1L, p)).singleElement().satisfies(o -> assertThat(o.result()).isEqualTo("ok"));
    }
  }

  static List<Long> spooledPids(Path spool) throws IOException {
    List<Long> out = new ArrayList<>();
    try (var s = Files.list(spool)) {
      for (Path seg : s.filter(p -> p.toString().endsWith(".spool")).sorted().toList()) {
        for (SpoolEntry e : Spool.readSegmentFile(seg)) {
          if (e.topic().equals(Topics.GPU_XID)) out.add(((GpuXid) RecordCodec.decode(e)).getPid());
        }
      }
    }
    return out;
  }

  @Test
  void aKillBetweenTheSpoolAppendAndTheCommitRepeatsNoLine(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    Files.writeString(log, line(1) + line(2));
    Path spool = dir.resolve("spool");
    Publisher first = new Publisher(spool, 1 << 20, 1 << 16, new SelfMetrics());
    round(new KilledAfterSpool(XidCollectorPositionTest.collector(dir)), first);
    assertThat(spooledPids(spool)).containsExactly(1L, 2L);
    Files.writeString(log, line(3), StandardOpenOption.APPEND);          // logged while the agent is down
    try (Publisher second = new Publisher(spool, 1 << 20, 1 << 16, new SelfMetrics())) {
      round(XidCollectorPositionTest.collector(dir), second);
    } finally {
      first.close();
    }
    assertThat(spooledPids(spool)).as("each line once, none lost").containsExactly(1L, 2L, 3L);
  }

  @Test
  void aKillInTheMiddleOfTheSpoolWriteLosesNoLine(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    Files.writeString(log, line(1));
    Path spool = dir.resolve("spool");
    try (Publisher first = new Publisher(spool, 1 << 20, 1 << 16, new SelfMetrics())) {
      Collector x = XidCollectorPositionTest.collector(dir);
      round(x, first);
      Files.writeString(log, line(2) + line(3), StandardOpenOption.APPEND);
      round(x, first);
    }
    Path seg;
    try (var s = Files.list(spool)) {
      seg = s.filter(p -> p.toString().endsWith(".spool")).findFirst().orElseThrow();
    }
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(Files.size(seg) - 3);                                  // the second round's last record torn
    }
    try (Publisher second = new Publisher(spool, 1 << 20, 1 << 16, new SelfMetrics())) {
      round(XidCollectorPositionTest.collector(dir), second);
    }
    assertThat(spooledPids(spool)).as("the torn round is read again, whole").containsExactly(1L, 2L, 3L);
  }

  @Test
  void thePositionOutlivesTheSentSegmentsThatHeldIt(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    Files.writeString(log, line(1));
    Path spool = dir.resolve("spool");
    try (Publisher first = new Publisher(spool, 1 << 20, 1 << 16, new SelfMetrics())) {
      round(XidCollectorPositionTest.collector(dir), first);
      Spool s = first.spool();
      Spool.Position end = s.acked();
      for (List<Spool.Read> r; !(r = s.read(end, 100, 1 << 20, 0)).isEmpty(); ) end = r.get(r.size() - 1).next();
      s.ack(end);                                                        // all sent: the segment is deleted
      assertThat(s.bytes()).isZero();
    }
    Files.writeString(log, line(2), StandardOpenOption.APPEND);
    try (Publisher second = new Publisher(spool, 1 << 20, 1 << 16, new SelfMetrics())) {
      round(XidCollectorPositionTest.collector(dir), second);
    }
    assertThat(spooledPids(spool)).as("only the new line").containsExactly(2L);
  }
}
