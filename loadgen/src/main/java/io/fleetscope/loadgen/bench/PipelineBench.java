package io.fleetscope.loadgen.bench;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.loadgen.LoadgenMain;
import io.fleetscope.loadgen.output.KafkaSink;
import io.fleetscope.loadgen.output.RecordSink;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.TopicBootstrap;
import io.fleetscope.schemas.TopicSettings;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.contract.AlertStatus;
import io.fleetscope.serde.AvroDeserializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bench pipeline --gpus N}: a paced (1x) simulated fleet into the running local stack, watching
 * records/s, consumer lag of every group, sample-to-anomaly latency (anomaly arrival on
 * fleet.anomalies.v1 minus the event time of the sample that triggered it; the loadgen stamps samples
 * with the wall clock) and CPU/RSS of every component, once a second. Writes pipeline.csv,
 * pipeline.png and pipeline-summary.md under the output directory.
 */
public final class PipelineBench {
  private static final Logger log = LoggerFactory.getLogger(PipelineBench.class);
  static final String PROBE_GROUP_PREFIX = "fleetscope-bench-";
  /** Partitions of every topic the bench creates. */
  static final int TOPIC_PARTITIONS = 6;

  /** What to run and where. */
  public record Options(int gpus, Duration duration, Duration warmup, String kafka, String registry, Path stateDir,
      Map<String, Long> pids, Path outDir, String scenario, long seed, String alertmanager,
      io.fleetscope.schemas.kafka.KafkaClientConfig kafkaClient) {
    /** Plaintext Kafka and an open registry. */
    public Options(int gpus, Duration duration, Duration warmup, String kafka, String registry, Path stateDir,
        Map<String, Long> pids, Path outDir, String scenario, long seed, String alertmanager) {
      this(gpus, duration, warmup, kafka, registry, stateDir, pids, outDir, scenario, seed, alertmanager,
          io.fleetscope.schemas.kafka.KafkaClientConfig.none());
    }

    /** Without an Alertmanager to watch (no sample-to-Alertmanager figure). */
    public Options(int gpus, Duration duration, Duration warmup, String kafka, String registry, Path stateDir,
        Map<String, Long> pids, Path outDir, String scenario, long seed) {
      this(gpus, duration, warmup, kafka, registry, stateDir, pids, outDir, scenario, seed, "");
    }
  }

  /** Alerts whose latency is reported on its own, after the warm-up: the hard faults the scenario probes with. */
  static final java.util.Set<String> PROBE_ALERTS = java.util.Set.of("GpuXid");

  /** The run's headline numbers. */
  public record Summary(int gpus, double producedRpsMedian, long lagMax, long lagFinal, double latencyP50Ms,
      double latencyP99Ms, int anomalies, Map<String, Double> cpuPctMean, Map<String, Double> rssMibMax,
      LagVerdict.Result lag, long deadLetters) {
    /** The verdict's slope: the worst group's floor slope, or the raw total lag's (see {@link LagVerdict}). */
    public double lagSlopePerS() {
      return lag.slopePerS();
    }

    public boolean lagBounded() {
      return lag.bounded();
    }

    Summary withDeadLetters(long n) {
      return new Summary(gpus, producedRpsMedian, lagMax, lagFinal, latencyP50Ms, latencyP99Ms, anomalies, cpuPctMean,
          rssMibMax, lag, n);
    }
  }

  private final Options o;
  private AlertmanagerProbe amProbe;

  public PipelineBench(Options o) {
    this.o = o;
  }

  public Summary run() throws Exception {
    int nodes = (o.gpus() + 7) / 8;
    long start = System.currentTimeMillis() / 1000 * 1000 + 1000;
    SimConfig cfg = SimConfig.of(nodes, ScenarioLoader.load(o.scenario()), o.seed()).withStart(start)
        .withDuration(o.duration().plusSeconds(5));
    FleetSimulator sim = new FleetSimulator(cfg);
    Map<String, Long> comps = new TreeMap<>(Components.discover(o.stateDir(), o.pids()));
    comps.put("loadgen+bench", ProcessHandle.current().pid());
    log.info("bench pipeline start gpus={} nodes={} duration_s={} kafka={} components={}", o.gpus(), nodes,
        o.duration().toSeconds(), o.kafka(), comps);
    Properties ap = o.kafkaClient().applyTo(new Properties());
    ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, o.kafka());
    ConcurrentLinkedQueue<double[]> latencies = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong produced = new AtomicLong();
    List<PipelineSample> samples = new ArrayList<>();
    long deadLetters; // written to fleet.dlq.v1 during the run (a late record once per analytic that finds it late)
    try (Admin admin = Admin.create(ap)) {
      ensureTopics(admin);
      LagProbe lag = new LagProbe(admin, PROBE_GROUP_PREFIX);
      long dlqAtStart = lag.endOffsetSum(Topics.DLQ);
      Thread consumer = new Thread(() -> consumeAnomalies(latencies, stop, start), "bench-anomalies");
      consumer.setDaemon(true);
      consumer.start();
      if (o.alertmanager() != null && !o.alertmanager().isBlank()) {
        amProbe = new AlertmanagerProbe(o.alertmanager(), start + o.warmup().toMillis(), 250);
        Thread t = new Thread(amProbe, "bench-alertmanager");
        t.setDaemon(true);
        t.start();
      }
      KafkaSink kafka = KafkaSink.connect(o.kafka(), o.kafkaClient(), o.registry());
      RecordSink counting = counting(kafka, produced);
      Thread producer = new Thread(() -> {
        try {
          LoadgenMain.emit(sim, counting, true);
        } catch (RuntimeException e) {
          if (!stop.get()) {
            throw e;
          }
          log.info("bench loadgen stopped reason={}", e.toString()); // a send cut short by the end of the run
        }
      }, "bench-loadgen");
      producer.setDaemon(true);
      producer.start();
      ProcStats proc = new ProcStats();
      Map<String, ProcStats.Reading> prev = new HashMap<>();
      long t0 = System.nanoTime();
      long lastProduced = 0;
      long next = System.currentTimeMillis() + 1000;
      List<double[]> window = new ArrayList<>();
      while ((System.nanoTime() - t0) / 1e9 < o.duration().toSeconds()) {
        Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
        next += 1000;
        double t = (System.nanoTime() - t0) / 1e9;
        long p = produced.get();
        double rps = p - lastProduced;
        lastProduced = p;
        for (double[] l; (l = latencies.poll()) != null;) {
          window.add(l);
          allLatencies.add(l[1]);
        }
        long nowMs = System.currentTimeMillis();
        window.removeIf(l -> l[0] < nowMs - 10_000);
        double[] lat = window.stream().mapToDouble(l -> l[1]).toArray();
        Map<String, Double> cpu = new TreeMap<>();
        Map<String, Double> rss = new TreeMap<>();
        proc.readAll(comps).forEach((name, r) -> { // one listing of the process table per second
          ProcStats.Reading before = prev.put(name, r);
          if (before != null) {
            cpu.put(name, 100 * (r.cpuSeconds() - before.cpuSeconds()));
          }
          rss.put(name, r.rssKib() / 1024.0);
        });
        Map<String, Long> lags;
        try {
          lags = lag.lagByGroup();
        } catch (Exception e) {
          log.warn("bench lag probe failed reason={}", e.toString());
          lags = Map.of();
        }
        PipelineSample s = new PipelineSample(t, rps, lags, Percentiles.of(lat, 50), Percentiles.of(lat, 99), cpu, rss);
        samples.add(s);
        if (samples.size() % 10 == 0) {
          log.info("bench pipeline t_s={} produced_rps={} lag_total={} latency_p50_ms={} latency_p99_ms={}",
              Math.round(t), Math.round(rps), s.totalLag(), fmt(s.latencyP50Ms()), fmt(s.latencyP99Ms()));
        }
      }
      stop.set(true);
      if (amProbe != null) {
        amProbe.stop();
      }
      producer.interrupt();
      producer.join(10_000);
      kafka.close();
      consumer.join(10_000);
      deadLetters = lag.endOffsetSum(Topics.DLQ) - dlqAtStart;
    }
    Summary sum = summarize(samples, o.warmup().toSeconds(), o.gpus(), allLatencies).withDeadLetters(deadLetters);
    write(samples, sum, checkpoints(Instant.ofEpochMilli(start).plus(o.warmup()), Instant.now()));
    return sum;
  }

  /**
   * The analytics' checkpoints after the warm-up: from the session cluster's JobManager log, or from
   * the analytics' own log with the MiniCluster engine (whichever has lines in the window).
   */
  List<CheckpointLog.Stats> checkpoints(Instant from, Instant to) {
    List<CheckpointLog.Stats> out = new ArrayList<>();
    for (Map.Entry<String, Path> e : Map.of(
        "session cluster (JobManager log)", o.stateDir().resolve("flink/log/jobmanager.log"),
        "MiniCluster (analytics log)", o.stateDir().resolve("logs/analytics.log")).entrySet()) {
      CheckpointLog.Stats st = CheckpointLog.stats(e.getKey(), CheckpointLog.read(e.getValue(), from, to));
      if (st != null) {
        out.add(st);
      }
    }
    return out;
  }

  /**
   * CPU microseconds the analytics spent per produced record: the analytics' CPU (their MiniCluster
   * JVM, or the session cluster's JobManager and TaskManagers) over the median produced rate.
   */
  static double analyticsCpuMicrosPerRecord(Summary s) {
    double pct = s.cpuPctMean().entrySet().stream()
        .filter(e -> e.getKey().equals("analytics") || e.getKey().startsWith("flink-"))
        .mapToDouble(Map.Entry::getValue).sum();
    return s.producedRpsMedian() <= 0 ? Double.NaN : pct / 100.0 * 1e6 / s.producedRpsMedian();
  }

  private final List<Double> allLatencies = Collections.synchronizedList(new ArrayList<>());
  /** Sample-to-anomaly latency of the probe alerts after the warm-up (once caught up). */
  private final List<Double> probeLatencies = Collections.synchronizedList(new ArrayList<>());

  private void consumeAnomalies(ConcurrentLinkedQueue<double[]> out, AtomicBoolean stop, long runStart) {
    Properties p = o.kafkaClient().applyTo(new Properties());
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, o.kafka());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, PROBE_GROUP_PREFIX + runStart);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    AvroDeserializer<Anomaly> d = new AvroDeserializer<>(o.kafkaClient().registryClient(o.registry()), Anomaly.class);
    try (KafkaConsumer<String, Anomaly> c = new KafkaConsumer<>(p, new StringDeserializer(), d)) {
      c.subscribe(List.of(Topics.ANOMALIES));
      while (!stop.get()) {
        for (ConsumerRecord<String, Anomaly> r : c.poll(Duration.ofMillis(200))) {
          long now = System.currentTimeMillis();
          Anomaly a = r.value();
          if (a != null && AlertStatus.isFiring(a.getStatus()) && a.getTs() >= runStart) {
            out.add(new double[] {now, now - a.getTs()});
            if (a.getTs() >= runStart + o.warmup().toMillis() && PROBE_ALERTS.contains(a.getLabels().get("alertname"))) {
              probeLatencies.add((double) (now - a.getTs()));
            }
          }
        }
      }
    } catch (RuntimeException e) {
      log.warn("bench anomaly consumer stopped reason={}", e.toString());
    }
  }

  /**
   * Creates the topics that are missing, as {@code Topics} specifies them but with
   * {@value #TOPIC_PARTITIONS} partitions each (the bench's load on a fresh broker, BENCHMARKS.md).
   */
  private static void ensureTopics(Admin admin) {
    List<TopicSettings> wanted = Topics.settings().stream().map(t -> t.withPartitions(TOPIC_PARTITIONS)).toList();
    List<String> created = TopicBootstrap.ensure(admin, wanted);
    if (!created.isEmpty()) {
      log.info("bench created topics n={}", created.size());
    }
  }

  private static RecordSink counting(RecordSink inner, AtomicLong n) {
    return new RecordSink() {
      @Override
      public void accept(SimRecord r) {
        inner.accept(r);
        n.incrementAndGet();
      }

      @Override
      public void flush() {
        inner.flush();
      }

      @Override
      public long failed() {
        return inner.failed();
      }

      @Override
      public void close() {
        inner.close();
      }
    };
  }

  /** Headline numbers of a run; samples before {@code warmupS} are left out of medians and slopes. */
  public static Summary summarize(List<PipelineSample> samples, long warmupS, int gpus, List<Double> latencies) {
    List<PipelineSample> steady = samples.stream().filter(s -> s.tS() >= warmupS).toList();
    if (steady.isEmpty()) {
      steady = samples;
    }
    double rps = Percentiles.median(steady.stream().mapToDouble(PipelineSample::producedRps).toArray());
    long lagMax = steady.stream().mapToLong(PipelineSample::totalLag).max().orElse(0);
    long lagFinal = samples.isEmpty() ? 0 : samples.get(samples.size() - 1).totalLag();
    LagVerdict.Result verdict = LagVerdict.of(steady, rps, LagVerdict.DEFAULT_WINDOW_S);
    Map<String, Double> cpu = new TreeMap<>();
    Map<String, Double> rss = new TreeMap<>();
    TreeSet<String> comps = new TreeSet<>();
    steady.forEach(s -> comps.addAll(s.rssMib().keySet()));
    for (String c : comps) {
      cpu.put(c, steady.stream().filter(s -> s.cpuPct().containsKey(c)).mapToDouble(s -> s.cpuPct().get(c)).average()
          .orElse(Double.NaN));
      rss.put(c, steady.stream().filter(s -> s.rssMib().containsKey(c)).mapToDouble(s -> s.rssMib().get(c)).max()
          .orElse(Double.NaN));
    }
    List<Double> lat;
    synchronized (latencies) {
      lat = new ArrayList<>(latencies);
    }
    return new Summary(gpus, rps, lagMax, lagFinal, Percentiles.of(lat, 50), Percentiles.of(lat, 99), lat.size(), cpu,
        rss, verdict, -1);
  }

  private void write(List<PipelineSample> samples, Summary s, List<CheckpointLog.Stats> checkpoints) throws Exception {
    Files.createDirectories(o.outDir());
    TreeSet<String> groups = new TreeSet<>();
    TreeSet<String> comps = new TreeSet<>();
    samples.forEach(x -> {
      groups.addAll(x.lagByGroup().keySet());
      comps.addAll(x.rssMib().keySet());
    });
    Path csv = o.outDir().resolve("pipeline-" + o.gpus() + ".csv");
    Path png = o.outDir().resolve("pipeline-" + o.gpus() + ".png");
    TimeSeriesCsv.write(samples, List.copyOf(groups), List.copyOf(comps), csv);
    PlotWriter.write(samples, "bench pipeline --gpus " + o.gpus() + " (" + o.duration().toSeconds() + " s)", png);
    Path md = o.outDir().resolve("pipeline-" + o.gpus() + "-summary.md");
    StringBuilder text = new StringBuilder(markdown(s, csv, png));
    text.append(probeLines());
    text.append(String.format(Locale.ROOT, "%nAnalytics CPU per produced record: %s µs%n", fmt(analyticsCpuMicrosPerRecord(s))));
    if (!checkpoints.isEmpty()) {
      text.append('\n').append(CheckpointLog.Stats.header());
      checkpoints.forEach(c -> text.append(c.markdown()));
    }
    Files.writeString(md, text.toString());
    checkpoints.forEach(c -> log.info("bench pipeline checkpoints source=\"{}\" completed={} median_bytes={} max_bytes={} "
        + "median_ms={} max_ms={}", c.source(), c.count(), c.medianBytes(), c.maxBytes(), c.medianDurationMs(), c.maxDurationMs()));
    log.info("bench pipeline done gpus={} rps={} lag_max={} lag_final={} lag_method={} lag_slope_per_s={} bounded={} "
            + "latency_p50_ms={} latency_p99_ms={} anomalies={} dead_letters={} csv={} png={}",
        s.gpus(), Math.round(s.producedRpsMedian()), s.lagMax(), s.lagFinal(), s.lag().method(), fmt(s.lagSlopePerS()),
        s.lagBounded(),
        fmt(s.latencyP50Ms()), fmt(s.latencyP99Ms()), s.anomalies(), s.deadLetters(), csv, png);
  }

  /**
   * The probes' latencies after the warm-up: sample to anomaly on fleet.anomalies.v1 and, with an
   * Alertmanager to watch, sample to Alertmanager (first seen by a 250 ms poll of its API).
   */
  private String probeLines() {
    List<Double> kafka;
    synchronized (probeLatencies) {
      kafka = new ArrayList<>(probeLatencies);
    }
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
        "%nProbe alerts %s after the warm-up: sample to fleet.anomalies.v1 p50 %s ms, p99 %s ms, max %s ms (n=%d)%n",
        new TreeSet<>(PROBE_ALERTS), fmt(Percentiles.of(kafka, 50)), fmt(Percentiles.of(kafka, 99)),
        fmt(kafka.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)), kafka.size()));
    if (kafka.isEmpty()) {
      // a probe XID on a GPU whose XID alert an earlier run left firing makes no new anomaly: the run has no probe
      b.append("No probe alert after the warm-up. On a stack an earlier bench used, the probe GPUs' XID alerts are still"
          + " firing and fire no new anomaly: measure on a fresh stack (./fleetscope down; remove the"
          + " state directory's kafka, postgres, flink, registry, alertmanager, streams and secrets; ./fleetscope up;"
          + " ./fleetscope run --fresh).").append(System.lineSeparator());
      log.warn("bench pipeline probes n=0 reason=\"no probe anomaly after the warm-up; a stack an earlier bench used keeps"
          + " the probe GPUs' XID alerts firing\"");
    }
    if (amProbe != null) {
      List<Double> am = amProbe.seen().stream().filter(x -> PROBE_ALERTS.contains(x.alertname()))
          .map(x -> (double) x.latencyMs()).toList();
      b.append(String.format(Locale.ROOT,
          "Probe alerts, sample to Alertmanager (first seen, 250 ms poll): p50 %s ms, p99 %s ms, max %s ms (n=%d)%n",
          fmt(Percentiles.of(am, 50)), fmt(Percentiles.of(am, 99)),
          fmt(am.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)), am.size()));
      log.info("bench pipeline probes alerts={} anomaly_p50_ms={} anomaly_p99_ms={} alertmanager_p50_ms={} "
          + "alertmanager_p99_ms={} n={}", new TreeSet<>(PROBE_ALERTS), fmt(Percentiles.of(kafka, 50)),
          fmt(Percentiles.of(kafka, 99)), fmt(Percentiles.of(am, 50)), fmt(Percentiles.of(am, 99)), am.size());
    }
    return b.toString();
  }

  public static String markdown(Summary s, Path csv, Path png) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "| GPUs | records/s (median) | lag max | lag final | lag slope/s (%s) | bounded "
        + "| latency p50 ms | latency p99 ms | anomalies | dead letters |%n|---|---|---|---|---|---|---|---|---|---|%n",
        s.lag().method()));
    b.append(String.format(Locale.ROOT, "| %d | %.0f | %d | %d | %s | %s | %s | %s | %d | %s |%n%n", s.gpus(),
        s.producedRpsMedian(), s.lagMax(), s.lagFinal(), fmt(s.lagSlopePerS()), s.lagBounded() ? "yes" : "no",
        fmt(s.latencyP50Ms()), fmt(s.latencyP99Ms()), s.anomalies(), s.deadLetters() < 0 ? "-" : Long.toString(s.deadLetters())));
    if (!s.lag().groups().isEmpty()) {
      b.append(String.format(Locale.ROOT, "| consumer group | lag floors (minimum per %.0f s window) | floor slope/s | bounded |%n"
          + "|---|---|---|---|%n", LagVerdict.DEFAULT_WINDOW_S));
      s.lag().groups().forEach((g, l) -> b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", g,
          l.floors().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")),
          fmt(l.floorSlopePerS()), l.bounded() ? "yes" : "no")));
      b.append('\n');
    }
    b.append("| component | CPU % of a core (mean) | RSS MiB (max) |\n|---|---|---|\n");
    s.cpuPctMean().forEach((c, v) -> b.append(String.format(Locale.ROOT, "| %s | %s | %s |%n", c, fmt(v),
        fmt(s.rssMibMax().getOrDefault(c, Double.NaN)))));
    b.append("\nTime series: ").append(csv.getFileName()).append(", plot: ").append(png.getFileName()).append('\n');
    return b.toString();
  }

  static String fmt(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
  }
}
