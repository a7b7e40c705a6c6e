package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A port taken by something else: up refuses with a clear line and starts nothing; status says down. */
class LocalStackPortConflictIT {
  @TempDir Path tmp;

  @Test
  void upRefusesAForeignListenerOnTheKafkaPort() throws Exception {
    try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      StackConfig config = StackConfig.fromEnv(Map.of(
          "FLEETSCOPE_STATE_DIR", tmp.resolve("state").toString(),
          "FLEETSCOPE_KAFKA_PORT", Integer.toString(squatter.getLocalPort()),
          "FLEETSCOPE_KAFKA_CONTROLLER_PORT", Integer.toString(FreePorts.pick()),
          "FLEETSCOPE_REGISTRY_PORT", Integer.toString(FreePorts.pick()),
          "FLEETSCOPE_PG_PORT", Integer.toString(FreePorts.pick()),
          "FLEETSCOPE_ALERTMANAGER_PORT", Integer.toString(FreePorts.pick())), tmp);

      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      int rc = StackCommands.up(config, new PrintStream(buf, true, StandardCharsets.UTF_8));
      String out = buf.toString(StandardCharsets.UTF_8);
      assertThat(rc).isEqualTo(1);
      assertThat(out).contains("stack up failed", "kafka: port " + squatter.getLocalPort() + " is in use");
      assertThat(out.lines().count()).isEqualTo(1);

      buf.reset();
      assertThat(StackCommands.status(config, new PrintStream(buf, true, StandardCharsets.UTF_8))).isEqualTo(1);
      assertThat(buf.toString(StandardCharsets.UTF_8)).contains("service=kafka endpoint=127.0.0.1:"
          + squatter.getLocalPort() + " health=down", "service=registry", "service=postgres", "service=alertmanager");
    }
  }
}
