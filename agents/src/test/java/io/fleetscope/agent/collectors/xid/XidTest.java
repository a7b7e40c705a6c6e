package io.fleetscope.agent.collectors.xid;

import static io.fleetscope.agent.testing.TestData.CTX;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.collectors.gpu.DcgmXidTracker;
import io.fleetscope.agent.collectors.gpu.PciBusId;
import io.fleetscope.avro.GpuXid;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class XidTest {
  // Kernel lines as quoted verbatim in public reports (no captured kernel log is among the fixtures):
  // a dmesg excerpt from a 2019 Linux forum post ("gnome-shell freezes", driver 390.116), and the
  // newer driver format with pid/name fields.
  static final String DMESG = """
      [ 1399.140318] NVRM: GPU at PCI:0000:01:00: GPU-34d7319c-5b19-1e75-186d-c187099e4fe5
      [ 1399.140323] NVRM: Xid (PCI:0000:01:00): 32, Channel ID 00000009 intr 00800000
      [ 1399.140655] NVRM: Xid (PCI:0000:01:00): 32, Channel ID 00000009 intr 00800000
      Dec  2 10:00:00 gpu-001 kernel: [ 5.1] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
      Dec  2 10:00:01 gpu-001 kernel: NVRM: Xid (PCI:0000:3b:00): 48, pid=2096908, name=python3, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 0, subpartition 0.
      """;

  @Test
  void oneRecordPerXidLineWithGpuFromPciMap() {
    List<GpuXid> x = XidLogParser.parse(DMESG, Map.of("0000:3b:00", 3), CTX);
    assertThat(x).extracting(GpuXid::getXid).containsExactly(32, 32, 79, 48);
    assertThat(x.get(0).getPciBusId()).isEqualTo("0000:01:00");
    assertThat(x.get(0).getGpu()).as("unknown PCI address").isNull();
    assertThat(x.get(0).getMessage()).isEqualTo("Channel ID 00000009 intr 00800000");
    assertThat(x.get(2).getGpu()).isEqualTo(3);
    assertThat(x.get(2).getPid()).isNull();
    assertThat(x.get(3).getPid()).isEqualTo(2096908L);
    assertThat(x.get(3).getMessage()).startsWith("pid=2096908, name=python3, An uncorrectable double bit error");
    assertThat(x.subList(0, 2)).as("dmesg seconds since boot, boot time unknown: the read time")
        .allSatisfy(r -> assertThat(r.getTs()).isEqualTo(CTX.ts()));
    java.time.ZoneId local = java.time.ZoneId.systemDefault();
    assertThat(x.get(2).getTs()).as("syslog time, the year before the read time (2026-01-01)")
        .isEqualTo(java.time.LocalDateTime.of(2025, 12, 2, 10, 0, 0).atZone(local).toInstant().toEpochMilli());
    assertThat(x.get(3).getTs()).isEqualTo(x.get(2).getTs() + 1000);
  }

  @Test
  void pciAddressesNormalise() {
    assertThat(PciBusId.normalize("00000000:3B:00.0")).isEqualTo("0000:3b:00");
    assertThat(PciBusId.normalize("0000:3b:00")).isEqualTo("0000:3b:00");
  }

  @Test
  void followerReadsOnlyNewCompleteLinesAndSurvivesRotation(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("kern.log");
    Files.writeString(log, "old line\n");
    LogFollower f = new LogFollower(log, true);
    assertThat(f.readNew()).isEmpty();
    Files.writeString(log, "NVRM: Xid (PCI:0000:01:00): 31, first\npartial", StandardOpenOption.APPEND);
    assertThat(f.readNew()).isEqualTo("NVRM: Xid (PCI:0000:01:00): 31, first\n");
    Files.writeString(log, " line\n", StandardOpenOption.APPEND);
    assertThat(f.readNew()).isEqualTo("partial line\n");
    // logrotate: move away, new file at the path
    Files.move(log, dir.resolve("kern.log.1"));
    Files.writeString(log, "NVRM: Xid (PCI:0000:01:00): 79, after rotation\n");
    assertThat(f.readNew()).isEqualTo("NVRM: Xid (PCI:0000:01:00): 79, after rotation\n");
    // copytruncate: same file, shorter
    Files.writeString(log, "x\n");
    assertThat(f.readNew()).isEqualTo("x\n");
  }

  @Test
  void dcgmXidFieldChangesBecomeEvents() {
    DcgmXidTracker t = new DcgmXidTracker();
    assertThat(t.observe(0, "00000000:3B:00.0", 13.0, CTX)).as("first value is a baseline").isEmpty();
    assertThat(t.observe(0, "00000000:3B:00.0", 13.0, CTX)).isEmpty();
    GpuXid e = t.observe(0, "00000000:3B:00.0", 79.0, CTX).orElseThrow();
    assertThat(e.getXid()).isEqualTo(79);
    assertThat(e.getGpu()).isZero();
    assertThat(e.getPciBusId()).isEqualTo("0000:3b:00");
    assertThat(t.observe(0, null, 0.0, CTX)).as("cleared").isEmpty();
    assertThat(t.observe(1, null, 48.0, CTX)).as("another GPU's baseline").isEmpty();
  }
}
