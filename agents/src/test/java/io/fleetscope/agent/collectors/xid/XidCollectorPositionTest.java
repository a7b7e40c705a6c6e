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

/** The collector saves its position only when told the round is spooled, and re-reads a discarded round. */
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
  void positionIsSavedOnlyAfterCommitAndADiscardedRoundIsReadAgain(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    Files.writeString(log, A);
    XidCollector x = collector(dir);
    assertThat(pids(x.collect(CTX))).containsExactly(1L);
    x.discarded();                                  // e.g. the round's deadline passed
    assertThat(pids(x.collect(CTX))).as("read again").containsExactly(1L);
    assertThat(dir.resolve("spool/xid.position")).as("not saved before the spool has the records").doesNotExist();
    x.committed();
    assertThat(dir.resolve("spool/xid.position")).exists();
    Files.writeString(log, B, StandardOpenOption.APPEND);
    assertThat(pids(collector(dir).collect(CTX))).as("a new agent resumes after the committed line").containsExactly(2L);
  }

  @Test
  void uncommittedLinesAreReadAgainAfterARestart(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("kern.log"), A);
    XidCollector x = collector(dir);
    x.collect(CTX);
    x.committed();
    Files.writeString(dir.resolve("kern.log"), B, StandardOpenOption.APPEND);
    assertThat(pids(x.collect(CTX))).containsExactly(2L);
    // killed before the spool had it: the restart reads B again, and only B
    assertThat(pids(collector(dir).collect(CTX))).containsExactly(2L);
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
  void journalCursorAdvancesOnlyWhenTheRoundIsCommitted(@TempDir Path dir) throws Exception {
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
    assertThat(pids(x.collect(CTX))).containsExactly(1L);
    assertThat(dir.resolve("xid.cursor")).as("the journal's cursor is not moved before the spool has the lines").doesNotExist();
    x.committed();
    assertThat(Files.readString(dir.resolve("xid.cursor")).strip()).isEqualTo("1");
    Files.writeString(dir.resolve("journal.txt"), B, StandardOpenOption.APPEND);
    assertThat(pids(x.collect(CTX))).containsExactly(2L);
    // killed before committing: a new agent starts from the committed cursor, B again and only B
    XidCollector restarted = new XidCollector(c, new AgentEnv(a));
    assertThat(pids(restarted.collect(CTX))).containsExactly(2L);
    restarted.discarded();
    assertThat(pids(restarted.collect(CTX))).as("a discarded round is read again").containsExactly(2L);
  }
}
