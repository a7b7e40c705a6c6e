package io.fleetscope.agent.collectors.xid;

import static io.fleetscope.agent.testing.TestData.CTX;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.avro.GpuXid;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector hands its position over as a checkpoint (kept by the spool with the round's records),
 * resumes from the checkpoint it is given back, and re-reads a discarded round. With a real spool
 * and a kill between any two steps: XidSpoolCheckpointTest.
 */
class XidCollectorPositionTest {
  static final String A = "2026-11-30T12:00:00+00:00 n kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1, name=p, off the bus.\n";
  static final String B = "2026-11-30T12:00:01+00:00 n kernel: NVRM: Xid (PCI:0000:3b:00): 48, pid=2, name=p, DBE.\n";

  static XidCollector collector(Path dir) throws Exception {
    AgentConfig a = new AgentConfig();
    a.cluster = "c";
    a.node = "n";
    a.baseDir = dir;
    a.spool.dir = Path.of("spool");
    XidCollector.Config c = new XidCollector.Config();
    c.file = Path.of("kern.log");
    c.startAt = "beginning";
    c.pciMapCommand = List.of();
    return new XidCollector(c, new AgentEnv(a));
  }

  static List<Long> pids(List<AgentRecord> rs) {
    return rs.stream().map(r -> ((GpuXid) r.value()).getPid()).toList();
  }

  @Test
  void theCheckpointIsTheRoundsPositionAndADiscardedRoundIsReadAgain(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    Files.writeString(log, A);
    XidCollector x = collector(dir);
    x.restore(null);
    assertThat(pids(x.collect(CTX))).containsExactly(1L);
    x.discarded();                                  // e.g. the round's deadline passed
    assertThat(pids(x.collect(CTX))).as("read again").containsExactly(1L);
    String afterA = x.checkpoint();
    assertThat(LogFollower.Position.parse(afterA).offset()).isEqualTo(A.length());
    x.committed();
    assertThat(x.collect(CTX)).isEmpty();
    assertThat(x.checkpoint()).as("nothing new read: no checkpoint to write").isNull();
    assertThat(dir.resolve("spool/xid.position")).as("no separate position file").doesNotExist();
    Files.writeString(log, B, StandardOpenOption.APPEND);
    XidCollector restarted = collector(dir);
    restarted.restore(afterA);
    assertThat(pids(restarted.collect(CTX))).as("a new agent resumes after the checkpointed line").containsExactly(2L);
    XidCollector fresh = collector(dir);
    fresh.restore(null);
    assertThat(pids(fresh.collect(CTX))).as("no checkpoint: start_at").containsExactly(1L, 2L);
  }

  @Test
  void anOlderAgentsPositionFileIsUsedOnlyWhenTheSpoolHasNoCheckpoint(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    Files.writeString(log, A + B);
    XidCollector x = collector(dir);
    x.restore(null);
    x.collect(CTX);
    String afterB = x.checkpoint();
    XidPositionFile.save(dir.resolve("spool/xid.position"), new LogFollower.Position(
        LogFollower.Position.parse(afterB).fileKey(), A.length(), LogFollower.hashOfLineBefore(log, A.length())));
    XidCollector upgraded = collector(dir);
    upgraded.restore(null);
    assertThat(pids(upgraded.collect(CTX))).as("from the position file").containsExactly(2L);
    XidCollector withCheckpoint = collector(dir);
    withCheckpoint.restore(afterB);
    assertThat(withCheckpoint.collect(CTX)).as("the spool's checkpoint wins").isEmpty();
  }

  /**
   * A stand-in for {@code journalctl --cursor-file=F}: prints the lines of journal.txt after the line
   * number in F (all when F is missing), then writes the last line number to F.
   */
  static final String FAKE_JOURNALCTL = """
      f="${1#--cursor-file=}"
      n=0; [ -f "$f" ] && n=$(cat "$f")
      total=$(wc -l < journal.txt)
      tail -n +$((n + 1)) journal.txt
      echo "$total" > "$f"
      """;

  @Test
  void journalCursorIsTheCheckpointAndARestartStartsFromTheSpooledOne(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("journalctl.sh"), FAKE_JOURNALCTL);
    Files.writeString(dir.resolve("journal.txt"), A);
    AgentConfig a = new AgentConfig();
    a.cluster = "c";
    a.node = "n";
    a.baseDir = dir;
    XidCollector.Config c = new XidCollector.Config();
    c.command = List.of("bash", "journalctl.sh", "--cursor-file=xid.cursor");
    c.pciMapCommand = List.of();
    XidCollector x = new XidCollector(c, new AgentEnv(a));
    x.restore(null);
    assertThat(pids(x.collect(CTX))).containsExactly(1L);
    assertThat(dir.resolve("xid.cursor")).as("the journal's cursor is not moved before the spool has the lines").doesNotExist();
    String afterA = x.checkpoint();
    assertThat(afterA.strip()).isEqualTo("1");
    x.committed();
    assertThat(Files.readString(dir.resolve("xid.cursor")).strip()).isEqualTo("1");
    Files.writeString(dir.resolve("journal.txt"), B, StandardOpenOption.APPEND);
    assertThat(pids(x.collect(CTX))).containsExactly(2L);
    String afterB = x.checkpoint();
    // killed after the spool had B and its cursor, before the cursor file was replaced: the spool's cursor wins
    XidCollector restarted = new XidCollector(c, new AgentEnv(a));
    restarted.restore(afterB);
    assertThat(restarted.collect(CTX)).as("B is not read twice").isEmpty();
    // killed before the spool had B: the restart starts from the spooled cursor after A, reads B once
    XidCollector before = new XidCollector(c, new AgentEnv(a));
    before.restore(afterA);
    assertThat(pids(before.collect(CTX))).containsExactly(2L);
    before.discarded();
    assertThat(pids(before.collect(CTX))).as("a discarded round is read again").containsExactly(2L);
  }
}
