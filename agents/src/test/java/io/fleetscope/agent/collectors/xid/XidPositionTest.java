package io.fleetscope.agent.collectors.xid;

import static io.fleetscope.agent.testing.TestData.CTX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuXid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel line's own time, and the followed file's position across a restart, rotation and truncation. */
class XidPositionTest {
  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  static final long READ = Instant.parse("2026-12-05T10:00:00Z").toEpochMilli();

  static long iso(String s) {
    return Instant.parse(s).toEpochMilli();
  }

  @Test
  void theRecordTimeIsTheKernelLineTimeInEveryCommonFormat() {
    assertThat(KernelLineTime.parse("2026-12-05T03:32:12.123456+00:00 gpu-001 kernel: NVRM: Xid", BERLIN, READ, -1))
        .isEqualTo(iso("2026-12-05T03:32:12.123Z"));
    assertThat(KernelLineTime.parse("2026-12-05T04:32:12+0100 gpu-001 kernel: NVRM", BERLIN, READ, -1))
        .as("journalctl -o short-iso on older systemd").isEqualTo(iso("2026-12-05T03:32:12Z"));
    assertThat(KernelLineTime.parse("Dec  5 04:32:12 gpu-001 kernel: NVRM", BERLIN, READ, -1))
        .as("syslog, node's zone").isEqualTo(iso("2026-12-05T03:32:12Z"));
    assertThat(KernelLineTime.parse("Dec 05 04:32:12.250000 gpu-001 kernel: NVRM", BERLIN, READ, -1))
        .as("journalctl -o short-precise").isEqualTo(iso("2026-12-05T03:32:12.250Z"));
    assertThat(KernelLineTime.parse("Dec 31 23:59:59 gpu-001 kernel: NVRM", ZoneOffset.UTC, iso("2027-01-01T00:00:05Z"), -1))
        .as("read just after new year: last year's December").isEqualTo(iso("2026-12-31T23:59:59Z"));
    assertThat(KernelLineTime.parse("[Sat Dec  5 04:32:12 2026] NVRM: Xid", BERLIN, READ, -1)).isEqualTo(iso("2026-12-05T03:32:12Z"));
    assertThat(KernelLineTime.parse("[ 1399.140318] NVRM: Xid", BERLIN, READ, iso("2026-12-05T00:00:00Z")))
        .as("dmesg: boot time + seconds since boot").isEqualTo(iso("2026-12-05T00:23:19.140Z"));
    assertThat(KernelLineTime.parse("[ 1399.140318] NVRM: Xid", BERLIN, READ, -1)).as("boot time unknown").isNull();
    assertThat(KernelLineTime.parse("NVRM: Xid (PCI:0000:3b:00): 79, x", BERLIN, READ, -1)).as("journalctl -o cat").isNull();
    assertThat(KernelLineTime.parse("Feb 30 10:00:00 gpu-001 kernel: NVRM", BERLIN, READ, -1)).as("not a date").isNull();
  }

  @Test
  void parsedXidCarriesTheLineTimeNotTheReadTime() {
    GpuXid x = XidLogParser.parseLine("2025-11-30T22:00:00.500+00:00 gpu-001 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=7, name=p, GPU has fallen off the bus.",
        Map.of(), CTX, ZoneOffset.UTC, -1);
    assertThat(x.getTs()).isEqualTo(iso("2025-11-30T22:00:00.500Z")).isNotEqualTo(CTX.ts());
  }

  @Test
  void positionRoundTripsAndACorruptFileIsAClearError(@TempDir Path dir) throws Exception {
    LogFollower.Position p = new LogFollower.Position("(dev=803,ino=1234)", 4096, 987654321L);
    XidPositionFile.save(dir.resolve("xid.position"), p);
    assertThat(XidPositionFile.load(dir.resolve("xid.position"))).isEqualTo(p);
    assertThat(XidPositionFile.load(dir.resolve("none"))).isNull();
    Files.writeString(dir.resolve("bad"), "offset=12\n");
    assertThatThrownBy(() -> XidPositionFile.load(dir.resolve("bad"))).isInstanceOf(IOException.class)
        .hasMessageContaining("corrupt").hasMessageContaining("file_key");
  }

  static void append(Path f, String text) throws IOException {
    Files.writeString(f, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  @Test
  void aRestartReadsWhatWasLoggedWhileDownAndNothingTwice(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    append(log, "a\nb\n");
    LogFollower first = new LogFollower(log, false);
    assertThat(first.readNew()).isEqualTo("a\nb\n");
    append(log, "c\npart");
    assertThat(first.readNew()).isEqualTo("c\n");
    LogFollower.Position saved = first.position();
    append(log, "ial\nd\n");   // logged while the agent is down
    LogFollower second = new LogFollower(log, saved);
    assertThat(second.resumeNote()).isNull();
    assertThat(second.readNew()).isEqualTo("partial\nd\n");
  }

  @Test
  void rotationWhileDownFinishesTheOldFileFirst(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    append(log, "a\n");
    LogFollower first = new LogFollower(log, false);
    assertThat(first.readNew()).isEqualTo("a\n");
    LogFollower.Position saved = first.position();
    append(log, "b\n");                      // logged while down, before the rotation
    Files.move(log, dir.resolve("kern.log.1"));
    append(log, "c\n");                      // in the new file
    LogFollower second = new LogFollower(log, saved);
    assertThat(second.resumeNote()).contains("rotated");
    assertThat(second.readNew()).isEqualTo("b\nc\n");
    append(log, "d\n");
    assertThat(second.readNew()).isEqualTo("d\n");
  }

  @Test
  void rotationWhileRunningFinishesTheOldFileFirst(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    append(log, "a\n");
    LogFollower f = new LogFollower(log, false);
    assertThat(f.readNew()).isEqualTo("a\n");
    append(log, "b\n");
    Files.move(log, dir.resolve("kern.log.1"));
    append(log, "c\n");
    assertThat(f.readNew()).isEqualTo("b\nc\n");
  }

  @Test
  void truncatedOrRewrittenFileIsReadFromItsBeginning(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    append(log, "first line\nsecond line\n");
    LogFollower f = new LogFollower(log, false);
    f.readNew();
    LogFollower.Position saved = f.position();
    // copytruncate, then more logged than before: same inode, longer, but a different line at the offset
    Files.writeString(log, "new one\nanother new one\nthird\n");
    LogFollower again = new LogFollower(log, saved);
    assertThat(again.resumeNote()).contains("changed");
    assertThat(again.readNew()).isEqualTo("new one\nanother new one\nthird\n");
  }
}
