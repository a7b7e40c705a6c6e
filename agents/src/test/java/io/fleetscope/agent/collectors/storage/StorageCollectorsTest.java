package io.fleetscope.agent.collectors.storage;

import static io.fleetscope.agent.testing.TestData.CTX;
import static io.fleetscope.agent.testing.TestData.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.BuiltinCollectors;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.config.ConfigLoader;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage collectors read the captures placed where the kernel keeps them, under a test proc root. */
class StorageCollectorsTest {
  @TempDir
  Path root;

  private AgentConfig config(String sections) throws ConfigException {
    return new ConfigLoader(BuiltinCollectors.registry()).parse(
        "cluster: test-cluster\nnode: node-a\npaths: {proc: proc, sys: sys}\n" + sections, root);
  }

  @Test
  void nfsAndLustreReadTheirProcFiles() throws Exception {
    Files.createDirectories(root.resolve("proc/self"));
    Files.writeString(root.resolve("proc/self/mountstats"), read("storage/procfs-mountstats-nfs4.txt"));
    Path fs = Files.createDirectories(root.resolve("proc/fs/lustre/llite/lustrefs-ffff88105db50000"));
    Files.writeString(fs.resolve("stats"), read("storage/lustre-2.10-llite-stats.txt"));
    AgentConfig c = config("nfs: {enabled: true}\nlustre: {enabled: true}\n");
    AgentEnv env = new AgentEnv(c);

    List<AgentRecord> nfs = new NfsCollector((NfsCollector.Config) c.collectors().get("nfs"), env).collect(CTX);
    assertThat(nfs).singleElement().satisfies(r -> {
      assertThat(r.topic()).isEqualTo(Topics.STORAGE);
      assertThat(r.key()).isEqualTo("node-a");
      assertThat(((StorageSample) r.value()).getDevice()).isEqualTo("/mnt/nfs/test");
    });
    List<AgentRecord> lustre = new LustreCollector((LustreCollector.Config) c.collectors().get("lustre"), env).collect(CTX);
    assertThat(lustre).singleElement().satisfies(r ->
        assertThat(((StorageSample) r.value()).getWriteBytes()).isEqualTo(93813797294080L));
  }

  @Test
  void nodesWithoutTheClientsSendNothing() throws Exception {
    AgentConfig c = config("");
    AgentEnv env = new AgentEnv(c);
    assertThat(new NfsCollector(new NfsCollector.Config(), env).collect(CTX)).isEmpty();
    assertThat(new LustreCollector(new LustreCollector.Config(), env).collect(CTX)).isEmpty();
    assertThat(NvmeCollector.controllers(root.resolve("sys"))).isEmpty();
  }

  @Test
  void nvmeControllersComeFromSysfsAndTheCommandGetsEachName() throws Exception {
    for (String d : List.of("nvme1", "nvme0", "nvme-subsys0")) Files.createDirectories(root.resolve("sys/class/nvme/" + d));
    assertThat(NvmeCollector.controllers(root.resolve("sys"))).containsExactly("nvme0", "nvme1");
    Path out = Files.writeString(root.resolve("smart.json"), read("storage/nvme-cli-2.11-smart-log.json"));
    // the command stands in for nvme-cli: it prints the capture and checks it was given the device
    AgentConfig c = config("nvme: {enabled: true, command: [sh, -c, 'test \"$0\" = /dev/nvme0 || test \"$0\" = /dev/nvme1 && cat " + out + "', \"/dev/{device}\"]}\n");
    List<AgentRecord> r = new NvmeCollector((NvmeCollector.Config) c.collectors().get("nvme"), new AgentEnv(c)).collect(CTX);
    assertThat(r).extracting(x -> ((StorageSample) x.value()).getDevice().toString()).containsExactly("nvme0", "nvme1");
    assertThat(r).allSatisfy(x -> assertThat(((StorageSample) x.value()).getPercentageUsed()).isEqualTo(30));
  }

  @Test
  void nvmeCommandWithoutTheDevicePlaceholderIsRefused() {
    assertThatThrownBy(() -> config("nvme: {command: [nvme, smart-log, /dev/nvme0]}\n"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("nvme.command").hasMessageContaining("{device}");
    assertThatThrownBy(() -> config("nvme: {devices: [sda]}\n"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("nvme.devices");
  }
}
