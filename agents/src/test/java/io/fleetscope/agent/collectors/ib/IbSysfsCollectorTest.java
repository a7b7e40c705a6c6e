package io.fleetscope.agent.collectors.ib;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.testing.TestData;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.IbPortSample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector over a sysfs tree that changes while it runs (the captured H100 mlx5_0 port copied
 * to several HCAs): the port list is cached between rescans, an HCA that goes away is dropped at
 * once, one that appears shows at the next rescan.
 */
class IbSysfsCollectorTest {
  static final Path CAPTURED = TestData.fixture("infiniband/gpud-sysfs-h100/sys/class/infiniband/mlx5_0");

  static void hca(Path sys, String name) throws IOException {
    Path dst = sys.resolve("class/infiniband").resolve(name);
    try (Stream<Path> s = Files.walk(CAPTURED)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = dst.resolve(CAPTURED.relativize(p).toString());
        if (Files.isDirectory(p)) Files.createDirectories(t);
        else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  static void remove(Path sys, String name) throws IOException {
    try (Stream<Path> s = Files.walk(sys.resolve("class/infiniband").resolve(name))) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }

  static List<String> devices(List<AgentRecord> records) {
    return records.stream().map(r -> ((IbPortSample) r.value()).getDevice() + "/" + ((IbPortSample) r.value()).getRail()).toList();
  }

  @Test
  void portsAreListedOncePerRescanAndAVanishedHcaIsDroppedAtOnce(@TempDir Path sys) throws Exception {
    hca(sys, "mlx5_0");
    hca(sys, "mlx5_1");
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "n";
    agent.paths.sys = sys;
    IbSysfsCollector c = new IbSysfsCollector(new IbSysfsCollector.Config(), new AgentEnv(agent));
    CollectContext ctx = new CollectContext(1000, "c", "n");

    assertThat(devices(c.collect(ctx))).containsExactly("mlx5_0/0", "mlx5_1/1");
    IbPortSample before = (IbPortSample) c.collect(ctx).get(1).value();
    assertThat(before.getXmitBytes()).isNotNull().isPositive();

    hca(sys, "mlx5_2");
    assertThat(devices(c.collect(ctx))).as("a new HCA waits for the next rescan").containsExactly("mlx5_0/0", "mlx5_1/1");

    remove(sys, "mlx5_1");
    assertThat(devices(c.collect(ctx))).as("the vanished HCA is left out at once").containsExactly("mlx5_0/0");
    assertThat(devices(c.collect(ctx))).as("relisted after a port vanished").containsExactly("mlx5_0/0", "mlx5_2/2");
  }

  @Test
  void aNewHcaShowsWithinTheRescanInterval(@TempDir Path sys) throws Exception {
    hca(sys, "mlx5_0");
    AgentConfig agent = new AgentConfig();
    agent.paths.sys = sys;
    IbSysfsCollector c = new IbSysfsCollector(new IbSysfsCollector.Config(), new AgentEnv(agent));
    CollectContext ctx = new CollectContext(1000, "c", "n");
    assertThat(devices(c.collect(ctx))).containsExactly("mlx5_0/0");
    hca(sys, "mlx5_3");
    int rounds = 1;
    while (c.collect(ctx).size() == 1) rounds++;
    assertThat(rounds).isEqualTo(IbSysfsCollector.RESCAN_ROUNDS);
  }
}
