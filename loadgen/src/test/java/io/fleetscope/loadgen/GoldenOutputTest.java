package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.loadgen.output.JsonLinesSink;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins the simulator's seeded output: line count and SHA-256 of the JSON lines of whole runs. The
 * {@code every-fault} scenario (test resources) has every fault type act, several on one target,
 * so it pins what each fault does and how faults on one GPU, port, node, rack, loop or job
 * combine. A change meant to alter the simulated data updates these values and says why; any
 * other change must leave them as they are, since the detection benchmark compares seeded runs.
 */
class GoldenOutputTest {

  private record Rendered(long lines, String sha256) {}

  private static Rendered render(SimConfig cfg) throws Exception {
    StringWriter w = new StringWriter();
    try (JsonLinesSink sink = new JsonLinesSink(w)) {
      new FleetSimulator(cfg).forEach(sink::accept);
    }
    String out = w.toString();
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(out.getBytes(StandardCharsets.UTF_8));
    return new Rendered(out.lines().count(), HexFormat.of().formatHex(digest));
  }

  private static Scenario everyFault() throws Exception {
    try (InputStream in = GoldenOutputTest.class.getResourceAsStream("/golden/every-fault.yaml")) {
      return ScenarioLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "every-fault.yaml");
    }
  }

  // every fleet.jobs.v1 allocation's JSON ends with "mig_devices":[] (GpuAllocation's MIG devices, none in the
  // simulator); with ,"mig_devices":[] removed the outputs hash as before (9a7b9af0..., 21695afd..., 0c5e226c...).
  // Since the GPU samples carry no NVLink totals (nvlink_tx_bytes, nvlink_rx_bytes: null, as from the real GPU
  // collectors; NVLink goes per link to fleet.nvlink.v1), every fleet.gpu.v1 line has null there: before that
  // the three outputs hashed 60255a63..., 4cb06acb..., 39846283...
  // Every GpuSample carries energy_mj (the GPU's cumulative energy counter); with ,"energy_mj":N removed the
  // outputs hash as without it (d75b6034..., e4349cb2..., 8b3dcc68...): at 1 s samples nothing else moved.
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "infiniband, 44437, 9b05bf0a5815b47ab2e693745ed0e2fefc318a86ea3512fe3063ab5851d6d476",
    // roce: + 64 lines, the fleet.fabric.config.v1 record of each of the 8 x 8 RoCE ports at the start; their
    // JSON carries PortConfig's InfiniBand fields (rate_gbps, link_width, link_speed, cap_mask: null), without
    // which the output hashes as before (65842ce6...); since then also its verbs fields (active_mtu, max_mtu, sl2vl:
    // null), without which (and without the jobs records' mig_devices) it hashes 21695afd...
    "roce,       44501, 43a184ab9aa5f8280c249a565313aca176eb97283523315e70dd06e945c047d4"
  })
  void everyFaultTypeOnEightNodes(String fabric, long lines, String sha256) throws Exception {
    SimConfig cfg = SimConfig.of(8, everyFault(), 5);
    cfg = cfg.withSite(cfg.site().withFabric(fabric));
    assertThat(render(cfg)).isEqualTo(new Rendered(lines, sha256));
  }

  @Test
  void builtInEccDegradation() throws Exception {
    SimConfig cfg = SimConfig.of(8, ScenarioLoader.load("ecc-degradation"), 42).withDuration(Duration.ofMinutes(8));
    assertThat(render(cfg))
        .isEqualTo(new Rendered(63099, "fe580008a88cd2f22f21ebb379e60f92f1756fa76dbc5b93484b932e5b83fe8d"));
  }
}
