package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.loadgen.output.JsonLinesSink;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.schemas.JsonLines;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterminismTest {

  private static String render(long seed) {
    SimConfig cfg = SimConfig.of(8, ScenarioLoader.load("ecc-degradation"), seed).withDuration(Duration.ofMinutes(8));
    StringWriter w = new StringWriter();
    try (JsonLinesSink sink = new JsonLinesSink(w)) {
      new FleetSimulator(cfg).forEach(sink::accept);
    }
    return w.toString();
  }

  @Test
  void sameSeedGivesByteIdenticalOutput() {
    String a = render(42);
    String b = render(42);
    assertThat(a).isNotEmpty();
    assertThat(a).isEqualTo(b);
  }

  @Test
  void differentSeedGivesDifferentOutput() {
    assertThat(render(42)).isNotEqualTo(render(43));
  }

  @Test
  void everyLineIsValidInterchangeThatRoundTrips() {
    String out = render(7);
    List<String> lines = out.lines().limit(5000).toList();
    for (String line : lines) {
      JsonLines.Line parsed = JsonLines.parse(line);
      assertThat(JsonLines.toJson(parsed)).isEqualTo(line);
    }
  }

  @Test
  void anEntitysNumbersDoNotDependOnFleetSize() {
    // seeded per id: gpu-0001's samples are the same in a fleet of 4 and of 8 nodes (same rack, same loop)
    SimConfig small = SimConfig.of(4, ScenarioLoader.load("healthy"), 5).withDuration(Duration.ofMinutes(1))
        .withDisorder(0, 0);
    SimConfig big = small.withSite(small.site().withNodes(8));
    var a = new FleetSimulator(small).stream().filter(r -> r.key().equals("gpu-0001") && r.topic().equals("fleet.gpu.v1"))
        .map(r -> JsonLines.toJson(r.toLine())).toList();
    var b = new FleetSimulator(big).stream().filter(r -> r.key().equals("gpu-0001") && r.topic().equals("fleet.gpu.v1"))
        .map(r -> JsonLines.toJson(r.toLine())).toList();
    assertThat(a).hasSize(60 * 8);
    assertThat(b).isEqualTo(a);
  }
}
