package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.loadgen.bench.chaos.ChaosReport;
import io.fleetscope.loadgen.bench.chaos.ChaosRunner;
import io.fleetscope.loadgen.bench.chaos.FaultKind;
import io.fleetscope.loadgen.bench.chaos.FaultOutcome;
import io.fleetscope.stack.services.FreePorts;
import io.fleetscope.stack.services.StackConfig;
import io.fleetscope.stack.services.flink.LocalFlink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The short version of {@code bench chaos}: the whole local stack on free ports in a temporary
 * directory, three minutes of an 8-node fleet with scripted incidents, and a SIGKILL and restart of
 * the broker, a TaskManager, the sink and the correlator. Every record the broker acknowledged is in
 * TimescaleDB exactly once, the live anomalies equal a bounded analyze of the same records, and each
 * incident was notified once, its resolution too.
 */
class ChaosIT {

  @Test
  void thePipelineLosesNothingAndPagesOnceThroughKillsOfBrokerTaskManagerSinkAndCorrelator() throws Exception {
    Path root = Path.of("").toAbsolutePath();
    while (!Files.isRegularFile(root.resolve("stack/flink-cluster/pom.xml"))) {
      root = root.getParent();
    }
    Path jar = ClusterAnalytics.jobJar(root);
    assertThat(jar).as("the job jar (mvn package builds it before the integration tests)").isRegularFile();
    Path dir = Files.createTempDirectory("fleetscope-chaos-it-");
    // PostgreSQL runs as its own OS user, which must reach its data directory below this one
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    StackConfig stack = new StackConfig(dir.resolve("state"), FreePorts.pick(), FreePorts.pick(), FreePorts.pick(),
        FreePorts.pick(), FreePorts.pick(), null, FreePorts.pick(), FreePorts.pick(), FreePorts.pick(), "1536m",
        LocalFlink.findLibDir(root), StackConfig.DEFAULT_FLINK_STATE_BACKEND);
    List<FaultKind> faults = List.of(FaultKind.BROKER, FaultKind.TASKMANAGER, FaultKind.SINK, FaultKind.CORRELATOR);

    ChaosReport r;
    try {
      r = new ChaosBench(stack, jar, FreePorts.pick(), FreePorts.pick(), System.out)
          .run(new ChaosRunner.Options(3, 8, 1, faults, dir.resolve("out")));
    } finally {
      deleteTree(dir); // the services are down by now; their data is a few hundred MB
    }
    System.out.print(r.text());

    assertThat(r.faults()).extracting(FaultOutcome::kind).containsExactlyElementsOf(faults);
    assertThat(r.faults()).allSatisfy(f -> assertThat(f.recovered()).as(f.kind().label()).isTrue());
    assertThat(r.raw().acked()).as("3 minutes of 8 nodes").isGreaterThan(8 * 16 * 150);
    assertThat(r.pages().incidents()).as("IbLinkDown every minute from 45 s, XID 79 at 100 s").isGreaterThanOrEqualTo(2);
    assertThat(r.failures()).as(r.text()).isEmpty();
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
