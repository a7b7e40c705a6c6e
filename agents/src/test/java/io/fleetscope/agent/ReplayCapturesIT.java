package io.fleetscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.testing.Golden;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.schemas.JsonLines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * End to end: {@code AgentMain --once --dry-run} on examples/replay-captures.yaml (every collector on
 * captured outputs) against the golden JSON lines; {@code -Dfleetscope.updateGolden=true} rewrites it.
 */
class ReplayCapturesIT {

  @Test
  void replayOfEveryCollectorMatchesGolden() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String config = TestData.moduleDir().resolve("examples/replay-captures.yaml").toString();
    int rc = AgentMain.run(new String[] {"--config", config, "--once", "--dry-run", "--now", Long.toString(TestData.TS)},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        BuiltinCollectors.registry());
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(rc).as("exit code; stderr: %s", err.toString(StandardCharsets.UTF_8)).isZero();

    List<String> lines = Arrays.asList(text.split("\n"));
    // every line is a valid interchange line whose value decodes as its topic's Avro record
    for (String l : lines) {
      JsonLines.Line line = JsonLines.parse(l);
      if (java.util.Set.of("fleet.gpu.v1", "fleet.gpu.xid.v1", "fleet.ib.v1", "fleet.jobs.v1").contains(line.topic())) {
        assertThat(line.key()).as("node telemetry is keyed by node").isEqualTo("replay-node");
      } else {
        assertThat(line.key()).as("facility telemetry and inventory: keyed by node or device id").isNotBlank();
      }
    }
    assertThat(lines.stream().map(l -> JsonLines.parse(l).topic()).distinct())
        .contains("fleet.gpu.v1", "fleet.gpu.xid.v1", "fleet.ib.v1", "fleet.inventory.v1", "fleet.jobs.v1", "fleet.pdu.v1", "fleet.coolant.v1");
    assertThat(lines).extracting(l -> JsonLines.parse(l).value().get(JsonLines.parse(l).value().getSchema().getField("agent_seq").pos()))
        .as("agent_seq counts 1..n in print order")
        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, lines.size()).boxed().toList());
    // compared as JSON trees line by line: map-typed fields (inventory attributes) may come in any order
    if (Golden.updating()) {
      Golden.assertText("replay-captures.jsonl", text);
    } else {
      var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
      java.nio.file.Path golden = TestData.moduleDir().resolve("src/test/resources/expected/replay-captures.jsonl");
      List<String> want = java.nio.file.Files.readAllLines(golden, StandardCharsets.UTF_8);
      assertThat(lines).as("line count vs %s", golden).hasSameSizeAs(want);
      for (int i = 0; i < want.size(); i++) {
        assertThat(mapper.readTree(lines.get(i))).as("line %d of %s", i + 1, golden).isEqualTo(mapper.readTree(want.get(i)));
      }
    }
  }

  @Test
  void badConfigExitsTwoNamingTheKey() throws Exception {
    java.nio.file.Path f = java.nio.file.Files.createTempFile("agent", ".yaml");
    java.nio.file.Files.writeString(f, "cluster: c\nkafka:\n  compression: gzip\n");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = AgentMain.run(new String[] {"--config", f.toString(), "--check"}, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8), BuiltinCollectors.registry());
    assertThat(rc).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("kafka.compression: must be lz4 or zstd, got 'gzip'");
  }
}
