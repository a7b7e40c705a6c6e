package io.fleetscope.loadgen;

import io.fleetscope.loadgen.bench.PipelineBench;
import io.fleetscope.schemas.Topics;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A benchmark, not a test (run by hand, never by surefire/failsafe): the ingest half of the pipeline,
 * loadgen paced at 1x -> a real broker (TestServices, 6 partitions per topic) through the real serde and
 * registry, measured by the pipeline driver (records/s, broker and loadgen CPU/RSS). No analytics run,
 * so there is no lag or latency to report. Args: GPUS DURATION OUT_DIR.
 */
public final class IngestBenchMain {
  private IngestBenchMain() {}

  public static void main(String[] args) throws Exception {
    int gpus = Integer.parseInt(args[0]);
    Duration d = io.fleetscope.loadgen.scenario.Durations.parse(args[1]);
    Path out = Path.of(args[2]);
    LocalKafka kafka = TestServices.kafka();
    String registry = TestServices.registry().url();
    for (var t : Topics.all().values()) {
      kafka.createTopic(t.name(), 6);
    }
    Path state = Files.createTempDirectory("ingest-bench-state");
    Files.createDirectories(state.resolve("run"));
    Files.writeString(state.resolve("run/kafka.pid"), Long.toString(kafka.pid()));
    PipelineBench.Summary s = new PipelineBench(new PipelineBench.Options(gpus, d, Duration.ofSeconds(15),
        kafka.bootstrapServers(), registry, state, Map.of(), out, "healthy", 1)).run();
    System.out.print(PipelineBench.markdown(s, out.resolve("pipeline-" + gpus + ".csv"),
        out.resolve("pipeline-" + gpus + ".png")));
    System.exit(0);
  }
}
