package io.fleetscope.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The job's program arguments, as {@code fleetscope run} and {@code flink run} pass them. */
class RunMainOptionsTest {

  @Test
  void defaultsAreTheEnvironmentsThenTheLocalStacks() {
    RunMain.Options local = RunMain.Options.parse(new String[0], Map.of());
    assertThat(local.bootstrap()).isEqualTo("127.0.0.1:19092");
    assertThat(local.registry()).isEqualTo("http://127.0.0.1:18081");
    assertThat(local.groupId()).isEqualTo(RunMain.JOB_NAME);
    assertThat(local.fromEarliest()).isTrue();
    assertThat(local.only()).isNull();
    assertThat(local.miniCluster()).isFalse();
    RunMain.Options env = RunMain.Options.parse(new String[] {"--kafka"},
        Map.of("FLEETSCOPE_KAFKA", "k:1", "FLEETSCOPE_REGISTRY", "http://r:2"));
    assertThat(env.bootstrap()).isEqualTo("k:1");
    assertThat(env.registry()).isEqualTo("http://r:2");
  }

  @Test
  void readsEveryOption() {
    RunMain.Options o = RunMain.Options.parse(new String[] {"--kafka", "b:9092", "--registry", "http://r:8081",
        "--config", "a.yaml", "--group-id", "g", "--from-latest", "--only", "rail,ecc", "--checkpoint-dir", "cp",
        "--minicluster"}, Map.of("FLEETSCOPE_KAFKA", "ignored:1"));
    assertThat(o).isEqualTo(new RunMain.Options("b:9092", "http://r:8081", Path.of("a.yaml"), "g", false,
        List.of("rail", "ecc"), Path.of("cp"), true));
  }

  @Test
  void readsATopicPrefixAndRefusesOneKafkaWouldNot() {
    RunMain.Options o = RunMain.Options.parse(new String[] {"--topic-prefix", "replay-1.", "--group-id", "replay-1"}, Map.of());
    assertThat(o.topicPrefix()).isEqualTo("replay-1.");
    assertThat(new io.fleetscope.flink.io.KafkaEndpoints("b:1", "http://r:2", "g", true,
        io.fleetscope.schemas.kafka.KafkaClientConfig.none(), o.topicPrefix()).topic("fleet.gpu.v1")).isEqualTo("replay-1.fleet.gpu.v1");
    assertThat(RunMain.Options.parse(new String[] {}, Map.of()).topicPrefix()).isEmpty();
    assertThatThrownBy(() -> RunMain.Options.parse(new String[] {"--topic-prefix", "a/b"}, Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--topic-prefix may hold letters");
  }

  @Test
  void refusesUnknownFlagsWithTheUsage() {
    assertThatThrownBy(() -> RunMain.Options.parse(new String[] {"--bootstrap", "b:1"}, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown options: '--bootstrap', 'b:1'").hasMessageContaining(RunMain.USAGE);
  }
}
