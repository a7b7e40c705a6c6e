package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.flink.RunMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --topic-prefix P} at configuration level: the analytics (MiniCluster) and the correlator
 * over P&lt;topic&gt; with a consumer group, application id and state of their own, and no sink or
 * console; what the option cannot honour is refused before anything starts. ReplayLiveIT runs these
 * components against real services.
 */
class RunTopicPrefixTest {
  @Test
  void thePrefixedRunIsTheAnalyticsAndTheCorrelatorOverThePrefixedTopicsWithTheirOwnGroupAndState(@TempDir Path tmp) {
    Endpoints e = new Endpoints("k:1", "http://r:2", "jdbc:postgresql://db/x", "http://am:3", 4, "http://f:5");
    Path state = RunCommand.prefixedStateDir(tmp, "replay-7.");
    assertThat(state).isEqualTo(tmp.resolve("prefix-replay-7."));
    List<Pipeline.Component> all = Pipeline.prefixed(e, state, Path.of("a.yaml"), "replay-7.", 18099);

    assertThat(all).extracting(Pipeline.Component::name).containsExactly("analytics", "correlator");
    Pipeline.Component analytics = all.get(0);
    assertThat(analytics.mainClass()).isEqualTo(RunMain.class.getName());
    assertThat(analytics.args()).containsSubsequence("--kafka", "k:1").containsSubsequence("--registry", "http://r:2")
        .containsSubsequence("--config", "a.yaml").contains("--minicluster")
        .containsSubsequence("--checkpoint-dir", state.resolve("flink-checkpoints").toString())
        .containsSubsequence("--topic-prefix", "replay-7.")
        .containsSubsequence("--group-id", "replay-7." + RunMain.JOB_NAME);
    Pipeline.Component correlator = all.get(1);
    assertThat(correlator.mainClass()).isEqualTo(io.fleetscope.streams.CorrelatorApp.class.getName());
    assertThat(correlator.args()).containsSubsequence("--topic-prefix", "replay-7.")
        .containsSubsequence("--http-port", "18099").containsSubsequence("--alertmanager", "http://am:3")
        .containsSubsequence("--state-dir", state.resolve("streams").toString())
        .doesNotContain("--jdbc");

    // the stack's own services keep their group, state and ports
    List<Pipeline.Component> stack = Pipeline.services(e, tmp, null, true);
    assertThat(stack.get(0).args()).doesNotContain("--topic-prefix").doesNotContain("--group-id");
    assertThat(stack).extracting(Pipeline.Component::name).contains("sink", "console");
  }

  @Test
  void whatThePrefixedRunCannotHonourIsRefusedBeforeAnythingStarts() {
    assertThatThrownBy(() -> Pipeline.prefixed(Endpoints.fromEnvironment(Map.of()), Path.of("s"), null, "a b", -1))
        .hasMessageContaining("letters, digits");
    for (List<String> args : List.of(
        List.of("run", "--topic-prefix", "p.", "--engine", "cluster"),
        List.of("run", "--topic-prefix", "p.", "--fresh"),
        List.of("run", "--topic-prefix", "p.", "--parallelism", "2"),
        List.of("run", "--topic-prefix", "p/q"))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = Main.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
          Map.of()).execute(args.toArray(String[]::new));
      assertThat(code).as(args.toString()).isNotZero();
      assertThat(err.toString(StandardCharsets.UTF_8)).as(args.toString()).contains("--topic-prefix");
      assertThat(out.toString(StandardCharsets.UTF_8)).as(args.toString()).doesNotContain("pipeline service=");
    }
  }
}
