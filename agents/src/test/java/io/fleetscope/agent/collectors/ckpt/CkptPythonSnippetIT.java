package io.fleetscope.agent.collectors.ckpt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.CheckpointEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the paste-in Python function of agents/CHECKPOINTS.md against the real endpoint. */
class CkptPythonSnippetIT {

  @TempDir Path tmp;

  static String snippet() throws IOException {
    String md = Files.readString(Path.of("CHECKPOINTS.md"));
    Matcher m = Pattern.compile("```python\n(import json.*?)```", Pattern.DOTALL).matcher(md);
    assertThat(m.find()).as("the paste-in block in CHECKPOINTS.md").isTrue();
    return m.group(1);
  }

  static boolean hasPython() {
    try {
      Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  @Test
  void theDocumentedSnippetPostsAStartAndAFinishTheAgentTurnsIntoRecords() throws Exception {
    assumeTrue(hasPython(), "python3 is not installed");
    CkptConfig cfg = new CkptConfig();
    cfg.port = 0;
    try (CkptCollector collector = new CkptCollector(cfg, System::currentTimeMillis)) {
      Path script = tmp.resolve("job.py");
      Files.writeString(script, snippet() + "\n"
          + "fleetscope_ckpt('snippet-job', 7, 'started', tier='local-nvme', ranks=8).join()\n"
          + "fleetscope_ckpt('snippet-job', 7, 'completed', bytes=123456789, tier='local-nvme', ranks=8).join()\n"
          + "fleetscope_ckpt('snippet-job', 8, 'started', tier=3).join()\n"   // bad tier: 400, silently ignored
          + "print('training goes on')\n");
      ProcessBuilder pb = new ProcessBuilder("python3", script.toString()).redirectErrorStream(true);
      pb.environment().put("FLEETSCOPE_CKPT_URL", "http://127.0.0.1:" + collector.port() + CheckpointServer.PATH);
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(out).isZero();
      assertThat(out).contains("training goes on");

      List<AgentRecord> records = collector.collect(new CollectContext(1L, "c1", "gpu-node-1"));
      assertThat(records).hasSize(2);
      CheckpointEvent start = (CheckpointEvent) records.get(0).value();
      CheckpointEvent done = (CheckpointEvent) records.get(1).value();
      assertThat(start.getStatus().toString()).isEqualTo("started");
      assertThat(done.getStatus().toString()).isEqualTo("completed");
      assertThat(done.getBytes()).isEqualTo(123456789L);
      assertThat(done.getRanks()).isEqualTo(8);
      assertThat(done.getTier().toString()).isEqualTo("local-nvme");
      assertThat(done.getStartedTs()).isEqualTo(start.getStartedTs());
      assertThat(done.getFinishedTs()).isGreaterThanOrEqualTo(done.getStartedTs());
    }
  }

  @Test
  void theSnippetNeverRaisesWhenNoAgentListens() throws Exception {
    assumeTrue(hasPython(), "python3 is not installed");
    Path script = tmp.resolve("job.py");
    Files.writeString(script, snippet() + "\n"
        + "fleetscope_ckpt('j', 1, 'started').join()\nprint('training goes on')\n");
    ProcessBuilder pb = new ProcessBuilder("python3", script.toString()).redirectErrorStream(true);
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort(); // nothing listens there once closed
    }
    pb.environment().put("FLEETSCOPE_CKPT_URL", "http://127.0.0.1:" + closedPort + "/v1/checkpoints");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out.strip()).isEqualTo("training goes on");
  }
}
