package io.fleetscope.agent;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.config.ConfigLoader;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectorRegistry;
import io.fleetscope.agent.core.RecordSink;
import io.fleetscope.agent.publish.BootstrapHosts;
import io.fleetscope.agent.publish.KafkaConnector;
import io.fleetscope.agent.publish.KafkaSender;
import io.fleetscope.agent.publish.ProducerFactory;
import io.fleetscope.agent.publish.Publisher;
import io.fleetscope.agent.publish.Spool;
import io.fleetscope.agent.schedule.MetricsServer;
import io.fleetscope.agent.schedule.Scheduler;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fleetscope agent --config FILE [--once] [--dry-run] [--check] [--now EPOCH_MS]}.
 *
 * <ul>
 *   <li>{@code --check}: validate the config and exit (0 ok, 2 with the key and why).
 *   <li>{@code --once --dry-run}: one round, records printed as JSON lines on stdout, no Kafka.
 *       {@code agent_seq} counts from 1 in print order. Exit 1 if a collector failed.
 *   <li>{@code --dry-run}: every round printed, forever.
 *   <li>{@code --once}: one round published (spool, then Kafka), waits until sent.
 *   <li>no flag: the agent: every collector on its interval, spool, Kafka, /metrics.
 * </ul>
 * {@code --now} fixes the clock (the sample time; golden tests) (golden tests).
 */
@Command(name = "agent", sortOptions = false,
    description = "The node or facility agent: every configured collector on its interval, spooled to disk, sent to Kafka.")
public final class AgentMain implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(AgentMain.class);

  @Mixin HelpOption help;

  @Option(names = "--config", paramLabel = "FILE", required = true, description = "the agent's YAML configuration")
  Path config;

  @Option(names = "--once", description = "one round, then exit (with --dry-run: printed; else sent, waiting until it is)")
  boolean once;

  @Option(names = "--dry-run", description = "print the records as JSON lines instead of sending them; no Kafka")
  boolean dryRun;

  @Option(names = "--check", description = "validate the configuration and exit (0 ok, 2 with the key and why)")
  boolean check;

  @Option(names = "--now", paramLabel = "EPOCH_MS", description = "fixes the clock: every sample gets this time (golden tests)")
  Long fixedTs;

  private final PrintStream out;
  private final PrintStream err;
  private final CollectorRegistry registry;

  /** The command printing to {@code out} and {@code err}, with the collectors of {@code registry}. */
  public AgentMain(PrintStream out, PrintStream err, CollectorRegistry registry) {
    this.out = out;
    this.err = err;
    this.registry = registry;
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, System.err, BuiltinCollectors.registry()));
  }

  static int run(String[] args, PrintStream out, PrintStream err, CollectorRegistry registry) {
    return CommandLines.execute(new AgentMain(out, err, registry), args, out, err);
  }

  @Override
  public Integer call() throws Exception {
    AgentConfig cfg;
    try {
      cfg = new ConfigLoader(registry).load(config);
    } catch (ConfigException e) {
      err.println("config error in " + config + ": " + e.getMessage());
      return 2;
    }
    if (check) {
      out.println("config ok: " + config);
      return 0;
    }
    SelfMetrics metrics = new SelfMetrics();
    AgentEnv env = new AgentEnv(cfg);
    List<Scheduler.Job> jobs = Agent.jobs(cfg, registry, env, metrics);
    Clock clock = Clock.systemUTC();
    Clock roundClock = fixedTs == null ? clock : Clock.fixed(java.time.Instant.ofEpochMilli(fixedTs), java.time.ZoneOffset.UTC);
    try (Scheduler scheduler = new Scheduler(jobs, cfg.cluster, cfg.node, roundClock, metrics)) {
      if (dryRun) {
        AtomicLong seq = new AtomicLong(1);
        PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        RecordSink printer = (collector, records) -> print(stdout, records, seq);
        if (once) {
          int failed = 0;
          for (Scheduler.Outcome o : scheduler.runOnce(roundClock.millis())) {
            print(stdout, o.records(), seq);
            if (!o.result().equals("ok")) {
              failed++;
              err.println("collector " + o.collector() + " " + o.result() + ": " + o.error());
            }
          }
          stdout.flush();
          return failed == 0 ? 0 : 1;
        }
        scheduler.start(printer);
        new CountDownLatch(1).await();
        return 0;
      }
      return publish(cfg, scheduler, metrics, once, roundClock);
    }
  }

  private static synchronized void print(PrintStream out, List<AgentRecord> records, AtomicLong seq) {
    for (AgentRecord r : records) {
      Publisher.stampSeq(r.value(), seq.getAndIncrement());
      out.println(JsonLines.toJson(new JsonLines.Line(r.topic(), r.key(), r.value())));
    }
  }

  private static int publish(AgentConfig cfg, Scheduler scheduler, SelfMetrics metrics, boolean once, Clock clock) throws Exception {
    Path spoolDir = cfg.resolve(cfg.spool.dir);
    Spool.Options spoolOptions = new Spool.Options(cfg.spool.fsyncInterval, java.nio.channels.FileChannel::open, () -> { });
    Publisher publisher = new Publisher(spoolDir, cfg.spool.maxBytes.bytes(), cfg.spool.segmentBytes.bytes(), metrics, spoolOptions);
    // built by the sender once the brokers' names resolve: at boot DNS may not be ready yet
    KafkaConnector connector = new KafkaConnector(cfg.kafka.bootstrap, () -> ProducerFactory.create(cfg), BootstrapHosts.DNS);
    KafkaSender sender = new KafkaSender(publisher.spool(), connector, ProducerFactory.serializer(cfg), metrics, 1000, cfg.kafka.linger)
        .describing(cfg.kafka.bootstrap, cfg.kafka.registryUrl).start();
    MetricsServer server = cfg.metrics.enabled && !once ? new MetricsServer(
        io.fleetscope.schemas.cli.ListenAddress.parse("metrics.address", cfg.metrics.address), cfg.metrics.port, metrics) : null;
    Runnable shutdown = () -> {
      try {
        scheduler.close();
        sender.close();
        log.info("agent stopped spool_pending={}", publisher.spool().pending());
        publisher.close();
        if (server != null) server.close();
      } catch (Exception e) {
        log.warn("shutdown error error={}", e.getMessage());
      }
    };
    log.info("agent started node={} cluster={} collectors={} spool={} kafka={} kafka_client=\"{}\"", cfg.node, cfg.cluster,
        cfg.collectors().size(), spoolDir, cfg.kafka.bootstrap, cfg.kafkaClient().describe());
    if (once) {
      scheduler.runOnce(clock.millis(), publisher);
      long deadline = System.currentTimeMillis() + 60_000;
      while (publisher.spool().pending() > 0 && System.currentTimeMillis() < deadline) Thread.sleep(100);
      long left = publisher.spool().pending();
      shutdown.run();
      return left == 0 ? 0 : 1;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "agent-shutdown"));
    scheduler.start(publisher);
    new CountDownLatch(1).await();
    return 0;
  }
}
