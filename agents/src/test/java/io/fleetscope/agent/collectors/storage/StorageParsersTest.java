package io.fleetscope.agent.collectors.storage;

import static io.fleetscope.agent.testing.TestData.CTX;
import static io.fleetscope.agent.testing.TestData.TS;
import static io.fleetscope.agent.testing.TestData.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.StorageSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The storage-tier parsers on the real captures in fixtures/storage (see its SOURCES.md). */
class StorageParsersTest {

  private static StorageSample.Builder base(String source, String tier, String device) {
    return StorageSample.newBuilder().setTs(TS).setCluster("test-cluster").setNode("node-a").setAgentSeq(0L)
        .setSource(source).setTier(tier).setDevice(device);
  }

  @Test
  void nvmeCli211SmartLogWithCriticalWarningObject() {
    StorageSample s = NvmeSmartLogParser.parse(read("storage/nvme-cli-2.11-smart-log.json"), "nvme0", CTX);
    assertThat(s).isEqualTo(base("nvme-smart-log", "local-nvme", "nvme0")
        .setCriticalWarning(0).setMediaErrors(0L).setPercentageUsed(30).setAvailableSparePct(100).setTempC(51.0)
        .setErrLogEntries(212L).setReadBytes(178037231L * 512_000L).setWriteBytes(1928683480L * 512_000L).build());
  }

  @Test
  void nvmeCli1xSmartLog() {
    StorageSample s = NvmeSmartLogParser.parse(read("storage/nvme-cli-1.x-smart-log.json"), "nvme1", CTX);
    assertThat(s).isEqualTo(base("nvme-smart-log", "local-nvme", "nvme1")
        .setCriticalWarning(0).setMediaErrors(0L).setPercentageUsed(15).setAvailableSparePct(100).setTempC(28.0)
        .setErrLogEntries(17L).setReadBytes(499296134L * 512_000L).setWriteBytes(1474968593L * 512_000L).build());
  }

  @Test
  void nvmeRefusesOutputThatIsNotAHealthLog() {
    assertThatThrownBy(() -> NvmeSmartLogParser.parse("Error: Inappropriate ioctl for device", "nvme0", CTX))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nvme0").hasMessageContaining("not JSON");
    assertThatThrownBy(() -> NvmeSmartLogParser.parse("{\"Devices\":[]}", "nvme0", CTX))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no health log fields");
  }

  @Test
  void lustre210StatsFile() {
    StorageSample s = LliteStatsParser.parseFile(read("storage/lustre-2.10-llite-stats.txt"), "lustrefs-ffff88105db50000", CTX);
    assertThat(s).isEqualTo(base("lustre-llite", "lustre", "lustrefs-ffff88105db50000")
        .setReadBytes(4194304L).setWriteBytes(93813797294080L).setReadOps(1L).setWriteOps(89467810L)
        .setReadTimeMs(null).setWriteTimeMs(null).build());
  }

  @Test
  void lustre214GetParamOutputKeepsOnlyTheLliteBlock() {
    List<StorageSample> s = LliteStatsParser.parseGetParam(read("storage/lustre-2.14-lctl-get-param-client.txt"), CTX);
    assertThat(s).containsExactly(base("lustre-llite", "lustre", "ai400x2-ff47bce9ca35d800")
        .setReadBytes(0L).setWriteBytes(0L).setReadOps(0L).setWriteOps(0L).build());
  }

  @Test
  void lustreWriteCallTimeFromUsecsLines() {
    // Documented 2.12+ layout (no public capture with data calls was found; see SOURCES.md): the
    // write_bytes line of the 2.10 capture plus a write line in [usecs].
    String text = read("storage/lustre-2.10-llite-stats.txt")
        + "write                     89467810 samples [usecs] 3 1210000 447339050000 9000000000000\n";
    StorageSample s = LliteStatsParser.parseFile(text, "fs", CTX);
    assertThat(s.getWriteOps()).isEqualTo(89467810L);
    assertThat(s.getWriteTimeMs()).isEqualTo(447339050L);
    assertThat(s.getReadTimeMs()).isNull();
  }

  @Test
  void nfsMountstatsOnlyTheNfsMount() {
    List<StorageSample> s = MountstatsParser.parse(read("storage/procfs-mountstats-nfs4.txt"), CTX);
    assertThat(s).containsExactly(base("nfs-mountstats", "nfs", "/mnt/nfs/test")
        .setReadBytes(1210214218L).setWriteBytes(0L).setReadOps(1298L).setWriteOps(0L)
        .setReadTimeMs(79407L).setWriteTimeMs(0L).setWriteRttMs(0L).build());
  }

  @Test
  void nfsMountstatsBadPerOpLineIsAClearError() {
    String text = read("storage/procfs-mountstats-nfs4.txt").replace("READ: 1298 1298 0", "READ: 1298 x 0");
    assertThatThrownBy(() -> MountstatsParser.parse(text, CTX)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("READ:").hasMessageContaining("field 2");
  }

  @Test
  void mountLineOfOtherFileSystemsIsSkipped() {
    assertThat(MountstatsParser.mountOf("device /dev/sda1 mounted on / with fstype ext4")).isNull();
    assertThat(MountstatsParser.mountOf("device 10.0.0.1:/ckpt mounted on /mnt/ckpt with fstype nfs statvers=1.1")).isEqualTo("/mnt/ckpt");
  }
}
