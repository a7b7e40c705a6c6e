package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.loadgen.bench.CommandAnalyzer;
import io.fleetscope.loadgen.bench.Components;
import io.fleetscope.loadgen.bench.DetectBench;
import io.fleetscope.loadgen.bench.Percentiles;
import io.fleetscope.loadgen.bench.PipelineBench;
import io.fleetscope.loadgen.bench.PipelineSample;
import io.fleetscope.loadgen.bench.PlotWriter;
import io.fleetscope.loadgen.bench.ProcStats;
import io.fleetscope.loadgen.bench.TimeSeriesCsv;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchPiecesTest {
  @TempDir
  Path tmp;

  @Test
  void percentilesByNearestRank() {
    double[] v = {5, 1, 4, 2, 3, 6, 7, 8, 9, 10};
    assertThat(Percentiles.of(v, 50)).isEqualTo(5);
    assertThat(Percentiles.of(v, 99)).isEqualTo(10);
    assertThat(Percentiles.of(v, 10)).isEqualTo(1);
    assertThat(Percentiles.median(v)).isEqualTo(5.5);
    assertThat(Percentiles.median(new double[] {3, 1, 2})).isEqualTo(2);
    assertThat(Percentiles.of(new double[0], 50)).isNaN();
    assertThatThrownBy(() -> Percentiles.of(v, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void procStatsOfThisProcess() throws Exception {
    long pid = ProcessHandle.current().pid();
    var r = new ProcStats().read(pid).orElseThrow();
    assertThat(r.rssKib()).isGreaterThan(10_000);
    assertThat(r.cpuSeconds()).isGreaterThan(0);
    // burn some CPU, the counter moves forward
    long x = 0;
    long until = System.nanoTime() + 300_000_000L;
    while (System.nanoTime() < until) {
      x += Long.numberOfTrailingZeros(System.nanoTime());
    }
    assertThat(x).isPositive();
    assertThat(new ProcStats().read(pid).orElseThrow().cpuSeconds()).isGreaterThan(r.cpuSeconds());
    assertThat(new ProcStats().read(Long.MAX_VALUE / 2)).isEmpty();
  }

  @Test
  void statLineWithSpacesAndParensInTheCommandName() {
    String line = "4242 (my (odd) cmd) S 1 4242 4242 0 -1 4194560 2000 0 0 0 250 75 0 0 20 0 30 0 100 1000 500";
    assertThat(ProcStats.cpuSeconds(line)).isEqualTo(3.25);
    assertThat(ProcStats.rssKib("Name:\tjava\nVmRSS:\t  123456 kB\nThreads: 3\n")).hasValue(123456);
  }

  private void fakeProcess(Path proc, long pid, long ppid, long utime, long stime, long cutime, long anonKib) throws Exception {
    Path d = Files.createDirectories(proc.resolve(Long.toString(pid)));
    Files.writeString(d.resolve("stat"), pid + " (postgres: fleetscope) S " + ppid + " 1 1 0 -1 4194560 10 0 0 0 " + utime + " "
        + stime + " " + cutime + " 0 20 0 1 0 100 1000 500");
    Files.writeString(d.resolve("status"), "Name:\tpostgres\nVmRSS:\t" + (anonKib + 5000) + " kB\nRssAnon:\t" + anonKib
        + " kB\nRssFile:\t3000 kB\nRssShmem:\t2000 kB\n");
  }

  @Test
  void aProcessTreeCountsItsLiveDescendantsAndReapedChildrenOnce() throws Exception {
    Path proc = tmp.resolve("proc");
    fakeProcess(proc, 100, 1, 100, 50, 300, 1000); // postmaster: 1.5 s itself, 3 s of exited backends
    fakeProcess(proc, 101, 100, 200, 0, 0, 400); // a backend
    fakeProcess(proc, 102, 100, 20, 30, 0, 100);
    fakeProcess(proc, 103, 101, 10, 0, 0, 50); // a child of a backend
    fakeProcess(proc, 200, 1, 9999, 9999, 0, 99999); // not in the tree
    Files.createDirectories(proc.resolve("self"));
    ProcStats.Reading r = new ProcStats(proc).read(100).orElseThrow();
    assertThat(r.cpuSeconds()).isEqualTo(1.5 + 3.0 + 2.0 + 0.5 + 0.1);
    // private memory of each, the root's file-backed and shared memory once
    assertThat(r.rssKib()).isEqualTo(1000 + 3000 + 2000 + 400 + 100 + 50);
    assertThat(new ProcStats(proc).read(103).orElseThrow().cpuSeconds()).isEqualTo(0.1);
  }

  @Test
  void componentsFromPidFiles() throws Exception {
    Files.createDirectories(tmp.resolve("run"));
    Files.writeString(tmp.resolve("run/kafka.pid"), "1234\n");
    Files.writeString(tmp.resolve("run/registry.pid"), "garbage\n");
    Files.createDirectories(tmp.resolve("postgres/pgdata"));
    Files.writeString(tmp.resolve("postgres/pgdata/postmaster.pid"), "777\n/some/dir\n");
    assertThat(Components.discover(tmp, Map.of("flink", 99L)))
        .containsExactlyInAnyOrderEntriesOf(Map.of("kafka", 1234L, "postgres", 777L, "flink", 99L));
  }

  private static List<PipelineSample> ramp(int n, long lagPerS) {
    List<PipelineSample> s = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      s.add(new PipelineSample(i, 40_000, Map.of("flink", 1000 + lagPerS * i, "sink", 200L), i % 2 == 0 ? 800 : Double.NaN,
          1500, Map.of("kafka", 50.0 + i % 3), Map.of("kafka", 300.0 + i)));
    }
    return s;
  }

  /** Lag of a group that commits every 30 s: it grows at the input rate and drops to a floor at each commit. */
  private static List<PipelineSample> sawTooth(int n, long floorGrowthPerS, long sinkLag) {
    List<PipelineSample> s = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long flink = 400_000 + floorGrowthPerS * i + 40_000L * (i % 30);
      s.add(new PipelineSample(i, 40_000, Map.of("flink", flink, "sink", sinkLag), Double.NaN, Double.NaN, Map.of(), Map.of()));
    }
    return s;
  }

  @Test
  void aSawToothWithALevelFloorIsBoundedWhereverTheRunEnds() {
    for (int n : new int[] {300, 310, 319, 329}) { // ending just after a commit or just before one
      var s = PipelineBench.summarize(sawTooth(n, 0, 5_000), 60, 20_000, List.of());
      assertThat(s.lag().method()).isEqualTo("floor");
      assertThat(s.lagBounded()).as("run of %d s", n).isTrue();
      assertThat(s.lag().groups().get("flink").floors()).allMatch(f -> f == 400_000L);
      assertThat(s.lag().groups().get("sink").bounded()).isTrue();
    }
  }

  @Test
  void aSawToothWhoseFloorRisesIsNotBounded() {
    var s = PipelineBench.summarize(sawTooth(300, 1_000, 5_000), 60, 20_000, List.of());
    assertThat(s.lag().method()).isEqualTo("floor");
    assertThat(s.lagBounded()).isFalse();
    assertThat(s.lag().groups().get("flink").bounded()).isFalse();
    assertThat(s.lag().groups().get("flink").floorSlopePerS()).isBetween(990.0, 1010.0);
    assertThat(s.lag().groups().get("sink").bounded()).isTrue();
  }

  @Test
  void summaryTellsBoundedFromGrowingLag() {
    var steady = PipelineBench.summarize(ramp(100, 0), 10, 20_000, List.of(100.0, 200.0, 300.0, 400.0));
    assertThat(steady.lagBounded()).isTrue();
    assertThat(steady.lagSlopePerS()).isEqualTo(0.0);
    assertThat(steady.producedRpsMedian()).isEqualTo(40_000);
    assertThat(steady.lagMax()).isEqualTo(1200);
    assertThat(steady.latencyP50Ms()).isEqualTo(200);
    assertThat(steady.latencyP99Ms()).isEqualTo(400);
    assertThat(steady.cpuPctMean().get("kafka")).isBetween(50.9, 51.1);
    assertThat(steady.rssMibMax().get("kafka")).isEqualTo(399.0);
    assertThat(steady.lag().method()).as("90 s of samples: too short for floors").isEqualTo("slope");
    var growing = PipelineBench.summarize(ramp(100, 2000), 10, 20_000, List.of());
    assertThat(growing.lagBounded()).isFalse();
    assertThat(growing.lagSlopePerS()).isBetween(1999.0, 2001.0);
    assertThat(growing.latencyP50Ms()).isNaN();
  }

  @Test
  void csvAndPlotAreWritten() throws Exception {
    List<PipelineSample> s = ramp(120, 50);
    Path csv = tmp.resolve("p.csv");
    TimeSeriesCsv.write(s, List.of("flink", "sink"), List.of("kafka"), csv);
    List<String> lines = Files.readAllLines(csv);
    assertThat(lines.get(0)).isEqualTo("t_s,produced_rps,lag_total,lag_flink,lag_sink,latency_p50_ms,latency_p99_ms,"
        + "cpu_pct_kafka,rss_mib_kafka");
    assertThat(lines).hasSize(121);
    assertThat(lines.get(2)).isEqualTo("1.0,40000.0,1250,1050,200,,1500.0,51.0,301.0");
    Path png = tmp.resolve("p.png");
    PlotWriter.write(s, "test run", png);
    BufferedImage img = ImageIO.read(png.toFile());
    assertThat(img.getWidth()).isEqualTo(PlotWriter.WIDTH);
    assertThat(img.getHeight()).isEqualTo(PlotWriter.HEIGHT);
    int coloured = 0;
    for (int x = 0; x < img.getWidth(); x += 2) {
      for (int y = 0; y < img.getHeight(); y += 2) {
        int rgb = img.getRGB(x, y) & 0xffffff;
        int r = rgb >> 16;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) {
          coloured++;
        }
      }
    }
    assertThat(coloured).as("the series are drawn in colour").isGreaterThan(200);
  }

  @Test
  void detectBenchRunsTheAnalyzeCommandPerScenarioAndScores() throws Exception {
    // the "analyzer" here is a shell command that finds nothing (copies only derived-looking lines): every label is a miss
    CommandAnalyzer none = new CommandAnalyzer("grep -c nothing-matches {in} > /dev/null; : > {out}", 60);
    var results = new DetectBench(new DetectBench.Options(List.of("xid-storm", "healthy"), 2, 1, tmp, 30_000), none).run();
    assertThat(results).hasSize(2);
    assertThat(Files.size(tmp.resolve("xid-storm.jsonl"))).isGreaterThan(1_000_000);
    assertThat(Files.readAllLines(tmp.resolve("xid-storm.labels.jsonl"))).hasSize(1);
    var xid = results.get(0).rows();
    assertThat(xid).singleElement().satisfies(r -> {
      assertThat(r.alertname()).isEqualTo("GpuXid");
      assertThat(r.recall()).isEqualTo(0.0);
      assertThat(r.precision()).isNaN();
    });
    assertThat(results.get(1).rows()).isEmpty();
    assertThat(DetectBench.report(results)).contains("GpuXid").contains("healthy: nothing expected");
    CommandAnalyzer failing = new CommandAnalyzer("echo boom >&2; exit 3 # {in} {out}", 60);
    var failed = new DetectBench(new DetectBench.Options(List.of("xid-storm"), 2, 1, tmp, 30_000), failing).run();
    assertThat(failed.get(0).error()).contains("exited 3").contains("boom");
    assertThatThrownBy(() -> new CommandAnalyzer("analyze --in x", 1)).hasMessageContaining("{in} and {out}");
  }

  @Test
  void detectBenchSamplesAtTheIntervalItIsGiven() throws Exception {
    CommandAnalyzer none = new CommandAnalyzer("grep -c nothing-matches {in} > /dev/null; : > {out}", 60);
    new DetectBench(new DetectBench.Options(List.of("healthy"), 1, 1, tmp, 30_000, 10_000), none).run();
    // one GPU's samples over the scenario's 10 minutes: every 10 s (600 at the default 1 s)
    assertThat(gpuSamples(tmp.resolve("healthy.jsonl"))).isBetween(59L, 61L);
  }

  private static long gpuSamples(Path records) throws Exception {
    try (var lines = Files.lines(records)) {
      return lines.filter(l -> l.contains("\"topic\":\"fleet.gpu.v1\"") && l.contains("\"node\":\"gpu-0001\"")
          && l.contains("\"gpu\":0,")).count();
    }
  }
}
