package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackConfigTest {
  private static final Path WD = Path.of("/srv/fleet");

  @Test
  void defaultsAreTheDocumentedEndpoints() {
    StackConfig c = StackConfig.fromEnv(Map.of(), WD);
    assertThat(c.stateDir()).isEqualTo(WD.resolve(".fleetscope"));
    assertThat(c.kafkaBootstrap()).isEqualTo("127.0.0.1:19092");
    assertThat(c.kafkaControllerPort()).isEqualTo(19094);
    assertThat(c.registryUrl()).isEqualTo("http://127.0.0.1:18081");
    assertThat(c.postgresJdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:15432/fleetscope?user=fleetscope");
    assertThat(c.alertmanagerUrl()).isEqualTo("http://127.0.0.1:19093");
    assertThat(c.alertmanagerConfig()).isNull();
    assertThat(c.flinkRestUrl()).isEqualTo("http://127.0.0.1:18082");
  }

  @Test
  void environmentOverridesEachSetting() {
    StackConfig c = StackConfig.fromEnv(Map.of("FLEETSCOPE_KAFKA_PORT", "29092", "FLEETSCOPE_REGISTRY_PORT", "28081",
        "FLEETSCOPE_PG_PORT", "25432", "FLEETSCOPE_ALERTMANAGER_PORT", "29093", "FLEETSCOPE_KAFKA_CONTROLLER_PORT", "29094",
        "FLEETSCOPE_STATE_DIR", "state", "FLEETSCOPE_ALERTMANAGER_CONFIG", "am.yml"), WD);
    assertThat(c).isEqualTo(new StackConfig(WD.resolve("state"), 29092, 29094, 28081, 25432, 29093, WD.resolve("am.yml"),
        18082, 18086, 18087, "3g", WD.resolve("stack/flink-cluster/target/lib"), "rocksdb"));
    StackConfig f = StackConfig.fromEnv(Map.of("FLEETSCOPE_FLINK_PORT", "28082", "FLEETSCOPE_FLINK_RPC_PORT", "28086",
        "FLEETSCOPE_FLINK_BLOB_PORT", "28087", "FLEETSCOPE_FLINK_TM_MEMORY", "1536m", "FLEETSCOPE_FLINK_LIB", "flink/lib",
        "FLEETSCOPE_FLINK_STATE_BACKEND", "hashmap"), WD);
    assertThat(f.flinkRestUrl()).isEqualTo("http://127.0.0.1:28082");
    assertThat(f.flinkConfig()).isEqualTo(new io.fleetscope.stack.services.flink.LocalFlink.Config(WD.resolve(".fleetscope/flink"),
        WD.resolve("flink/lib"), 28082, 28086, 28087, 2, "768m", "1536m", java.time.Duration.ofSeconds(2), true,
        java.time.Duration.ofSeconds(180), "hashmap", ""));
  }

  @Test
  void badValuesAreRefusedNamingTheVariable() {
    assertThatThrownBy(() -> StackConfig.fromEnv(Map.of("FLEETSCOPE_KAFKA_PORT", "nine"), WD))
        .hasMessageContaining("FLEETSCOPE_KAFKA_PORT=nine");
    assertThatThrownBy(() -> StackConfig.fromEnv(Map.of("FLEETSCOPE_PG_PORT", "70000"), WD))
        .hasMessageContaining("FLEETSCOPE_PG_PORT").hasMessageContaining("70000");
    assertThatThrownBy(() -> StackConfig.fromEnv(Map.of("FLEETSCOPE_REGISTRY_PORT", "19092"), WD))
        .hasMessageContaining("two services configured on port 19092");
    assertThatThrownBy(() -> StackConfig.fromEnv(Map.of("FLEETSCOPE_FLINK_PORT", "18081"), WD))
        .hasMessageContaining("two services configured on port 18081");
    assertThatThrownBy(() -> StackConfig.fromEnv(Map.of("FLEETSCOPE_FLINK_TM_MEMORY", "lots"), WD))
        .hasMessageContaining("FLEETSCOPE_FLINK_TM_MEMORY=lots");
    assertThatThrownBy(() -> StackConfig.fromEnv(Map.of("FLEETSCOPE_FLINK_STATE_BACKEND", "leveldb"), WD))
        .hasMessageContaining("FLEETSCOPE_FLINK_STATE_BACKEND=leveldb");
  }
}
