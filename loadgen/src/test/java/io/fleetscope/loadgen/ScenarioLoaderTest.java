package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.loadgen.scenario.Durations;
import io.fleetscope.loadgen.scenario.FaultType;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScenarioLoaderTest {

  @Test
  void everyBuiltinScenarioLoadsAndYieldsLabelsForItsFaults() {
    assertThat(ScenarioLoader.builtinNames()).hasSize(30).contains("healthy", "demo", "chaos", "job-start", "job-stop",
        "hot-gpu-flat", "pfs-degraded", "slow-checkpoint-job", "fabric-pfc-off", "fabric-site-policy", "nvlink-down", "nvlink-errors",
        "nvlink-job-end", "nvme-media-errors", "ib-port-narrow", "ib-mtu-mismatch");
    for (String n : ScenarioLoader.builtinNames()) {
      Scenario s = ScenarioLoader.load(n);
      assertThat(s.name()).isEqualTo(n);
      assertThat(s.description()).isNotBlank();
      FleetSimulator sim = new FleetSimulator(SimConfig.of(Math.max(8, s.minNodes()), s, 1));
      if (s.faults().stream().allMatch(f -> f.type().benign())) {
        assertThat(sim.labels()).as(n).isEmpty();
      } else {
        assertThat(sim.labels()).as(n).isNotEmpty();
        assertThat(sim.labels()).allSatisfy(l -> assertThat(l.endTs()).isGreaterThan(l.startTs()));
      }
    }
  }

  @Test
  void aNewScenarioIsJustAFile() {
    Scenario s = ScenarioLoader.parse("""
        name: two-faults
        description: custom
        duration: 3m
        faults:
          - id: hot
            type: thermal_runaway
            target: {node: gpu-0002, gpu: 1}
            start: 30s
            end: 2m
          - type: ib-link-down
            target: {node: 0, rail: 7}
            start: 1m
            alerts: [IbLinkDown, RailImbalance]
            match: [cluster, node]
        """, "inline");
    assertThat(s.duration()).isEqualTo(Duration.ofMinutes(3));
    assertThat(s.faults()).extracting(f -> f.type()).containsExactly(FaultType.THERMAL_RUNAWAY, FaultType.IB_LINK_DOWN);
    FleetSimulator sim = new FleetSimulator(SimConfig.of(2, s, 1));
    assertThat(sim.labels()).extracting(l -> l.alertname() + "@" + l.target().get("node"))
        .containsExactly("GpuThermalThrottleRisk@gpu-0002", "IbLinkDown@gpu-0001", "RailImbalance@gpu-0001");
    assertThat(sim.labels().get(1).match()).containsExactly("cluster", "node");
    assertThat(sim.labels().get(1).endTs()).isEqualTo(sim.config().endMs());
  }

  @Test
  void badScenariosAreRefusedWithTheReason() {
    assertThatThrownBy(() -> ScenarioLoader.parse("name: x\nfaults:\n  - type: meteor\n", "f.yaml"))
        .hasMessageContaining("f.yaml: faults[0]").hasMessageContaining("unknown fault type 'meteor'");
    assertThatThrownBy(() -> ScenarioLoader.parse("name: x\ncolour: red\n", "f.yaml")).hasMessageContaining("unknown key 'colour'");
    assertThatThrownBy(() -> ScenarioLoader.parse("name: x\nfaults:\n  - type: xid_storm\n    start: 5m\n    end: 2m\n", "f"))
        .hasMessageContaining("must be after start");
    assertThatThrownBy(() -> ScenarioLoader.parse("description: no name\n", "f")).hasMessageContaining("'name' is required");
    assertThatThrownBy(() -> ScenarioLoader.parse("name: [\n", "f")).hasMessageContaining("not valid YAML");
    assertThatThrownBy(() -> ScenarioLoader.load("no-such-scenario")).hasMessageContaining("built-in");
    Scenario outOfRange = ScenarioLoader.parse("name: x\nfaults:\n  - type: xid_storm\n    target: {node: 40, gpu: 1}\n", "f");
    assertThatThrownBy(() -> new FleetSimulator(SimConfig.of(4, outOfRange, 1))).hasMessageContaining("node index 40 out of range");
    Scenario noGpu = ScenarioLoader.parse("name: x\nfaults:\n  - type: xid_storm\n    target: {node: 1}\n", "f");
    assertThatThrownBy(() -> new FleetSimulator(SimConfig.of(4, noGpu, 1))).hasMessageContaining("needs a target with node and gpu");
  }

  @Test
  void durationsParse() {
    assertThat(Durations.parse("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.of(15)).isEqualTo(Duration.ofSeconds(15));
    assertThat(Durations.of(1.5)).isEqualTo(Duration.ofMillis(1500));
    // one syntax across scenario files and command lines: ISO-8601, bare strings and words are refused
    assertThatThrownBy(() -> Durations.parse("PT2M")).hasMessageContaining("500ms, 5s, 10m, 1h or 1m30s");
    assertThatThrownBy(() -> Durations.parse("15")).hasMessageContaining("500ms, 5s, 10m, 1h or 1m30s");
    assertThatThrownBy(() -> Durations.parse("5 minutes")).hasMessageContaining("500ms, 5s, 10m, 1h or 1m30s");
  }

  @Test
  void loadgenOptionsAreValidated() {
    assertThatThrownBy(() -> LoadgenOptions.parse(new String[] {"--out", "x.jsonl"})).hasMessageContaining("--nodes");
    assertThatThrownBy(() -> LoadgenOptions.parse(new String[] {"--nodes", "2", "--kafka", "h:1", "--out", "x"}))
        .hasMessageContaining("--kafka (and --kafka-config) or --out, not both");
    assertThatThrownBy(() -> LoadgenOptions.parse(new String[] {"--nodes", "2", "--out", "x", "--interval", "1.5s"}))
        .hasMessageContaining("'1.5s' is not a duration");
    assertThatThrownBy(() -> LoadgenOptions.parse(new String[] {"--nodes", "2", "--bogus"})).hasMessageContaining("--bogus");
    assertThatThrownBy(() -> LoadgenOptions.parse(new String[] {"--nodes", "0", "--out", "x"})).hasMessageContaining("positive");
    assertThatThrownBy(() -> LoadgenOptions.parse(new String[] {"--nodes", "2", "--out", "x", "--rate", "2x"}))
        .hasMessageContaining("max or 1x");
    LoadgenOptions o = LoadgenOptions.parse(new String[] {"--nodes", "2", "--out", "x.jsonl", "--duration", "1m"});
    assertThat(o.paced()).isFalse();
    assertThat(o.start()).isEqualTo(SimConfig.DEFAULT_START);
    assertThat(LoadgenOptions.parse(new String[] {"--nodes", "2", "--kafka", "h:1"}).paced()).isTrue();
    // Kafka is the default target, and --kafka without a value is the local stack's broker
    LoadgenOptions kafka = LoadgenOptions.parse(new String[] {"--nodes", "2", "--kafka"});
    assertThat(kafka.out()).isNull();
    assertThat(kafka.kafka()).isNotBlank();
    assertThat(kafka.paced()).isTrue();
    assertThat(LoadgenOptions.parse(new String[] {"--nodes", "2"}).kafka()).isEqualTo(kafka.kafka());
  }
}
