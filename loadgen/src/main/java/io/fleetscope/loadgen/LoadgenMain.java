package io.fleetscope.loadgen;

import io.fleetscope.loadgen.output.JsonLinesSink;
import io.fleetscope.loadgen.output.KafkaSink;
import io.fleetscope.loadgen.output.LabelsWriter;
import io.fleetscope.loadgen.output.RecordSink;
import io.fleetscope.loadgen.scenario.Scenario;
import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.loadgen.sim.SimRun;
import io.fleetscope.schemas.cli.CommandLines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Entry point of {@code loadgen}: simulate a fleet and write its records to Kafka or a file ({@link LoadgenCommand}). */
public final class LoadgenMain {
  private static final Logger log = LoggerFactory.getLogger(LoadgenMain.class);

  private LoadgenMain() {}

  public static void main(String[] args) {
    int rc = run(args);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** Parses {@code args} ({@link LoadgenCommand}) and runs the command; returns the exit code. */
  public static int run(String[] args) {
    return CommandLines.execute(new LoadgenCommand(), args);
  }

  /** Runs the command with parsed options; returns the exit code. */
  public static int run(LoadgenOptions o) {
    if (o.listScenarios()) {
      for (String n : ScenarioLoader.builtinNames()) {
        Scenario s = ScenarioLoader.load(n);
        System.out.printf("%-24s %s%n", n, s.description().replace('\n', ' '));
      }
      return 0;
    }
    SimConfig cfg = config(o);
    FleetSimulator sim = new FleetSimulator(cfg);
    if (o.labels() != null) {
      LabelsWriter.write(o.labels(), sim.labels());
    }
    log.info("loadgen start scenario={} nodes={} gpus={} seed={} start={} duration_s={} paced={} out={}",
        cfg.scenario().name(), cfg.site().nodes(), sim.topology().totalGpus(), cfg.seed(),
        java.time.Instant.ofEpochMilli(cfg.startMs()), cfg.durationMs() / 1000, o.paced(),
        o.out() != null ? o.out() : "kafka:" + o.kafka());
    try (RecordSink sink = o.out() != null ? JsonLinesSink.toFile(o.out()) : KafkaSink.connect(o.kafka(), o.kafkaClient(), o.registry())) {
      long n = emit(sim, sink, o.paced());
      sink.flush();
      log.info("loadgen done records={} failed={}", n, sink.failed());
      return sink.failed() == 0 ? 0 : 1;
    }
  }

  /** The simulation config the options describe. */
  public static SimConfig config(LoadgenOptions o) {
    Scenario sc = ScenarioLoader.load(o.scenario());
    SimConfig cfg = SimConfig.of(o.nodes(), sc, o.seed());
    cfg = cfg.withSite(cfg.site().withGpusPerNode(o.gpusPerNode()).withCluster(o.cluster()))
        .withInterval(o.interval().toMillis()).withStart(o.start().toEpochMilli());
    if (o.duration() != null) {
      cfg = cfg.withDuration(o.duration());
    }
    if (!o.disorder()) {
      cfg = cfg.withDisorder(0, 0);
    }
    return cfg;
  }

  /**
   * Sends every record of a fresh run to the sink; when paced, each tick waits until the wall clock
   * reaches its event time (1x), so a live pipeline sees the fleet in real time.
   */
  public static long emit(FleetSimulator sim, RecordSink sink, boolean paced) {
    long n = 0;
    for (SimRecord r : sim.initialRecords()) {
      sink.accept(r);
      n++;
    }
    SimRun run = sim.run();
    long lastLog = System.currentTimeMillis();
    long lastN = 0;
    while (run.hasNextTick() && !Thread.currentThread().isInterrupted()) { // interrupted: stop after this tick
      if (paced) {
        long wait = run.nextTickTs() - System.currentTimeMillis();
        if (wait > 0) {
          try {
            Thread.sleep(wait);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            break;
          }
        }
      }
      for (SimRecord r : run.advance()) {
        sink.accept(r);
        n++;
      }
      long now = System.currentTimeMillis();
      if (now - lastLog >= 10_000) {
        log.info("loadgen progress event_ts={} records={} rps={}", java.time.Instant.ofEpochMilli(run.nextTickTs()), n,
            (n - lastN) * 1000 / Math.max(1, now - lastLog));
        lastLog = now;
        lastN = n;
      }
    }
    for (SimRecord r : run.drain()) {
      sink.accept(r);
      n++;
    }
    return n;
  }
}
