package io.fleetscope.agent.collectors.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.GpuSample;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loop mode with real processes: the bench's nvidia-smi stand-in over a captured CSV, and shells that exit or stall. */
class NvidiaSmiCsvStreamTest {
  static final String LOAD_CSV = "nvidia-smi/h200-580.159.04/query-gpu-load.csv";

  static Path standin() {
    return TestData.moduleDir().resolve("bench/nvidia-smi-loop-standin.sh");
  }

  static long children(String marker) {
    return ProcessHandle.current().descendants()
        .filter(p -> p.isAlive() && p.info().commandLine().orElse("").contains(marker)).count();
  }

  @Test
  void oneLongRunningProcessServesEveryRoundAndStopsWithTheCollector(@TempDir Path dir) throws Exception {
    AgentConfig agent = new AgentConfig();
    agent.cluster = "c";
    agent.node = "n";
    agent.baseDir = dir;
    agent.interval = Duration.ofMillis(200);
    NvidiaSmiCsvCollector.Config cfg = new NvidiaSmiCsvCollector.Config();
    cfg.stream = true;
    cfg.streamCommand = List.of(standin().toString(), TestData.fixture(LOAD_CSV).toString(), "{interval_ms}");
    cfg.validate("nvidia_smi");
    GpuSample expected = NvidiaSmiCsvParser.parse(TestData.read(LOAD_CSV), TestData.CTX).get(0);
    NvidiaSmiCsvCollector c = new NvidiaSmiCsvCollector(cfg, new AgentEnv(agent));
    try {
      // the first rounds may come before the process printed its first probe (as NVML's start on a node)
      long end = System.nanoTime() + 10_000_000_000L;
      while (true) {
        try {
          c.collect(TestData.CTX);
          break;
        } catch (IOException notYet) {
          assertThat(notYet).hasMessageContaining("no nvidia-smi block");
          if (System.nanoTime() > end) throw notYet;
        }
      }
      for (int round = 0; round < 4; round++) {
        List<AgentRecord> recs = c.collect(TestData.CTX);
        assertThat(recs).hasSize(1);
        assertThat(recs.get(0).value()).isEqualTo(expected);
        Thread.sleep(200);
      }
      assertThat(children("nvidia-smi-loop-standin")).as("one process for all rounds").isEqualTo(1);
    } finally {
      c.close();
    }
    assertThat(children("nvidia-smi-loop-standin")).as("stopped with the collector").isZero();
  }

  @Test
  void aSectionWithItsOwnCommandRunsItPerRoundUnlessToldToStream() {
    NvidiaSmiCsvCollector.Config cfg = new NvidiaSmiCsvCollector.Config();
    assertThat(cfg.streams()).as("default: nvidia-smi's loop mode").isTrue();
    cfg.command = List.of("cat", "gpus.csv");
    assertThat(cfg.streams()).as("a replay's cat").isFalse();
    cfg.stream = true;
    assertThat(cfg.streams()).isTrue();
  }

  @Test
  void aStalledProcessIsRestartedAndItsBlocksComeBack(@TempDir Path dir) throws Exception {
    String csv = TestData.fixture(LOAD_CSV).toString();
    // prints one probe, then hangs (as nvidia-smi on a GPU that stopped answering)
    List<String> cmd = List.of("sh", "-c", "cat '" + csv + "'; exec sleep 60");
    try (NvidiaSmiCsvStream s = new NvidiaSmiCsvStream("nvidia_smi", cmd, dir, List.of("index"),
        Duration.ofMillis(300), Duration.ofMillis(500))) {
      assertThat(s.take(Duration.ofSeconds(5)).rows()).hasSize(1);
      Thread.sleep(700);
      assertThatThrownBy(() -> s.take(Duration.ofMillis(100))).isInstanceOf(IOException.class)
          .hasMessageContaining("printed nothing").hasMessageContaining("restarting");
      // started again after the 1 s backoff; its first probe is fresh again
      assertThat(s.take(Duration.ofSeconds(5)).rows()).hasSize(1);
    }
  }

  @Test
  void aProcessThatCannotStartFailsTheRoundWithItsReason(@TempDir Path dir) {
    try (NvidiaSmiCsvStream s = new NvidiaSmiCsvStream("nvidia_smi", List.of("/nonexistent/nvidia-smi"), dir, List.of("index"),
        Duration.ofMillis(300), Duration.ofSeconds(10))) {
      assertThatThrownBy(() -> s.take(Duration.ofMillis(300))).isInstanceOf(IOException.class)
          .hasMessageContaining("no nvidia-smi block").hasMessageContaining("not running");
    }
  }
}
