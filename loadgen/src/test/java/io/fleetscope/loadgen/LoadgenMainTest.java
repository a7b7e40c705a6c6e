package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.loadgen.output.LabelsWriter;
import io.fleetscope.schemas.JsonLines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadgenMainTest {
  @TempDir
  Path tmp;

  @Test
  void writesRecordsAndLabelsFilesAsTheCommandLineSays() throws Exception {
    Path out = tmp.resolve("run/records.jsonl");
    Path labels = tmp.resolve("run/labels.jsonl");
    int rc = LoadgenMain.run(new String[] {"--nodes", "4", "--gpus-per-node", "8", "--scenario", "ib-link-degraded",
        "--duration", "4m", "--seed", "9", "--interval", "2s", "--cluster", "lab", "--out", out.toString(),
        "--labels", labels.toString()});
    assertThat(rc).isZero();
    List<String> lines = Files.readAllLines(out);
    Map<String, Long> perTopic = lines.stream().map(JsonLines::parse)
        .collect(Collectors.groupingBy(JsonLines.Line::topic, Collectors.counting()));
    // 4 nodes x 8 GPUs (and 8 HCAs) every 2 s for 240 s
    assertThat(perTopic).containsEntry("fleet.gpu.v1", 4L * 8 * 120).containsEntry("fleet.ib.v1", 4L * 8 * 120)
        .containsEntry("fleet.inventory.v1", 4L + 1 + 2 + 1).containsEntry("fleet.jobs.v1", 4L);
    assertThat(lines.get(0)).contains("\"cluster\":\"lab\"");
    var l = LabelsWriter.read(labels);
    assertThat(l).singleElement().satisfies(x -> {
      assertThat(x.alertname()).isEqualTo("IbLinkDegraded");
      assertThat(x.target()).containsEntry("node", "gpu-0004").containsEntry("rail", "5").containsEntry("cluster", "lab");
    });
    // a second run with the same flags writes the same bytes
    Path again = tmp.resolve("again.jsonl");
    LoadgenMain.run(new String[] {"--nodes", "4", "--gpus-per-node", "8", "--scenario", "ib-link-degraded",
        "--duration", "4m", "--seed", "9", "--interval", "2s", "--cluster", "lab", "--out", again.toString()});
    assertThat(Files.mismatch(out, again)).isEqualTo(-1L);
  }
}
