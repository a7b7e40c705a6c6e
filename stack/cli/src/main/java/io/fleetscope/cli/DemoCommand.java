package io.fleetscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.loadgen.LoadgenMain;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.stack.services.ChildProcesses;
import io.fleetscope.stack.services.JavaClasspath;
import io.fleetscope.stack.services.StackCommands;
import io.fleetscope.stack.services.StackConfig;
import io.fleetscope.stack.services.flink.FlinkRest;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code demo [--minutes N] [--nodes N] [--seed S]}: the whole pipeline on the local stack with a
 * simulated fleet running the {@code demo} scenario in real time (healthy, then a CDU loses flow on one
 * loop and the racks behind it heat up, then the flow comes back). Prints every incident as it
 * appears in and leaves Alertmanager. The local infrastructure stays up afterwards
 * ({@code ./fleetscope down} stops it).
 */
@Command(name = "demo", sortOptions = false,
    description = "The whole pipeline on local services with a simulated fleet and a scripted incident (a CDU pump fails"
        + " about 75 s in). The local services stay up afterwards.")
final class DemoCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Mixin HelpOption help;

  @Option(names = "--minutes", paramLabel = "N", description = "how long the fleet runs, at least 2 (default: ${DEFAULT-VALUE})")
  int minutes = 8;

  @Option(names = "--nodes", paramLabel = "N", description = "simulated nodes of 8 GPUs, at least 4 (default: ${DEFAULT-VALUE})")
  int nodes = 8;

  @Option(names = "--seed", paramLabel = "S", description = "random seed of the fleet (default: the simulator's)")
  Long seed;

  private final PrintStream out;
  private final PrintStream err;

  DemoCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    if (minutes < 2) {
      throw new IllegalArgumentException("--minutes must be at least 2 (the incident starts 75 s in)");
    }
    if (nodes < 4) {
      throw new IllegalArgumentException("--nodes must be at least 4 (the demo heats one rack of 4 nodes)");
    }
    Endpoints base = Endpoints.fromEnvironment(System.getenv());
    StackConfig stack = StackCommand.config();
    Endpoints e = new Endpoints(stack.kafkaBootstrap(), stack.registryUrl(),
        "jdbc:postgresql://127.0.0.1:" + stack.postgresPort() + "/fleetscope", stack.alertmanagerUrl(), base.consolePort(),
        stack.flinkRestUrl());
    out.println("demo step=up what=\"Kafka, schema registry, PostgreSQL+TimescaleDB, Alertmanager, Flink session cluster\"");
    if (StackCommands.up(stack, out) != 0) {
      err.println("demo status=failed step=up (see the lines above)");
      return 1;
    }
    io.fleetscope.schemas.TopicBootstrap.ensureAll(e.kafka());
    Path state = stack.stateDir();
    out.println("demo step=analytics what=\"the analytics job on the Flink session cluster, empty state (a demo starts fresh)\"");
    ClusterAnalytics analytics = new ClusterAnalytics(new FlinkRest(e.flink()), new ClusterAnalytics.Options(
        ClusterAnalytics.jobJar(StackCommand.root()), Pipeline.analyticsArgs(e, null),
        AnalyticsConfig.defaults().pipeline().parallelism(), stack.flinkConfig().dir(), true, false), out);
    ClusterAnalytics.Deployed job = analytics.deploy();
    out.println("demo step=pipeline what=\"correlator (Kafka Streams), sink (TimescaleDB), console\"");
    try (Pipeline p = new Pipeline(state, Pipeline.services(e, state, null, false));
        NotificationReceiver pager = new NotificationReceiver(NotificationReceiver.DEFAULT_PORT,
            state.resolve("logs/notifications.log"), out).start()) {
      Runtime.getRuntime().addShutdownHook(new Thread(p::close, "demo-stop"));
      p.start(out, false);
      waitForConsole(e, Duration.ofSeconds(120), p);
      out.printf("demo console=%s alertmanager=%s flink=%s%n", e.consoleUrl(), e.alertmanager(), e.flink());
      out.printf("demo step=fleet nodes=%d gpus=%d scenario=demo minutes=%d what=\"healthy, then at ~75 s a CDU pump fails on loop 0; flow recovers at 6 min\"%n",
          nodes, nodes * 8, minutes);
      List<String> cmd = new ArrayList<>(List.of(JavaClasspath.javaExecutable(), "-Xmx512m", "-cp", JavaClasspath.current(),
          LoadgenMain.class.getName(), "--nodes", Integer.toString(nodes), "--scenario", "demo",
          "--duration", minutes + "m", "--start", "now", "--rate", "1x", "--kafka", e.kafka(), "--registry", e.registry()));
      if (seed != null) {
        cmd.addAll(List.of("--seed", seed.toString()));
      }
      Process fleet = ChildProcesses.start(cmd, state, state.resolve("logs/loadgen.log"), false, Map.of());
      try {
        watch(e, fleet, p, Instant.now().plus(Duration.ofMinutes(minutes)).plusSeconds(30), out, err);
      } finally {
        ChildProcesses.stop(fleet.toHandle(), Duration.ofSeconds(5));
      }
      out.printf("demo summary pages=%d tickets=%d (notifications Alertmanager sent to the local pager and ticket receivers; log: %s)%n",
          pager.pages.get(), pager.tickets.get(), state.resolve("logs/notifications.log"));
    } finally {
      if (!job.alreadyRunning()) {
        analytics.stop(job.jobId());
      }
    }
    out.println("demo done: the local services are still up; history: ./fleetscope query; stop them: ./fleetscope down");
    return 0;
  }

  private static void waitForConsole(Endpoints e, Duration timeout, Pipeline p) throws Exception {
    HttpClient h = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      String dead = p.firstDead();
      if (dead != null) {
        throw new IllegalStateException("pipeline service " + dead + " exited; see " + p.logOf(dead.split(" ")[0]));
      }
      try {
        HttpResponse<String> r = h.send(HttpRequest.newBuilder(URI.create(e.consoleUrl() + "/api/health"))
            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (java.io.IOException ignored) {
        // not listening yet
      }
      Thread.sleep(1000);
    }
    throw new IllegalStateException("the console did not answer within " + timeout.toSeconds() + " s; see " + p.logOf("console"));
  }

  /** Prints Alertmanager's alerts as they fire and resolve until the fleet stops or the deadline. */
  private static void watch(Endpoints e, Process fleet, Pipeline p, Instant until, PrintStream out, PrintStream err)
      throws Exception {
    HttpClient h = HttpClient.newHttpClient();
    Map<String, String> seen = new HashMap<>();
    Instant start = Instant.now();
    Instant lastTick = Instant.EPOCH;
    while (Instant.now().isBefore(until)) {
      String dead = p.firstDead();
      if (dead != null) {
        err.printf("demo status=failed service=%s log=%s%n", dead, p.logOf(dead.split(" ")[0]));
        return;
      }
      try {
        HttpResponse<String> r = h.send(HttpRequest.newBuilder(URI.create(e.alertmanager() + "/api/v2/alerts?active=true&silenced=true&inhibited=true"))
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          Map<String, JsonNode> now = new TreeMap<>();
          for (JsonNode alert : JSON.readTree(r.body())) {
            boolean active = alert.path("endsAt").asText("").isEmpty()
                || Instant.parse(alert.path("endsAt").asText()).isAfter(Instant.now());
            if (active) {
              now.put(alert.path("fingerprint").asText(), alert);
            }
          }
          for (Map.Entry<String, JsonNode> en : now.entrySet()) {
            if (!seen.containsKey(en.getKey())) {
              seen.put(en.getKey(), AlertText.describe(en.getValue()));
              out.printf("demo t=+%ds alert=FIRING %s%n", Duration.between(start, Instant.now()).toSeconds(), seen.get(en.getKey()));
            }
          }
          for (String fp : new ArrayList<>(seen.keySet())) {
            if (!now.containsKey(fp) && !seen.get(fp).startsWith("[resolved]")) {
              out.printf("demo t=+%ds alert=RESOLVED %s%n", Duration.between(start, Instant.now()).toSeconds(), seen.get(fp));
              seen.put(fp, "[resolved] " + seen.get(fp));
            }
          }
        }
      } catch (java.io.IOException ex) {
        err.printf("demo alertmanager=unreachable error=\"%s\"%n", ex.getMessage());
      }
      if (Duration.between(lastTick, Instant.now()).toSeconds() >= 30) {
        out.printf("demo t=+%ds fleet=%s alerts_active=%d console=%s%n", Duration.between(start, Instant.now()).toSeconds(),
            fleet.isAlive() ? "running" : "finished",
            seen.values().stream().filter(v -> !v.startsWith("[resolved]")).count(), e.consoleUrl());
        lastTick = Instant.now();
      }
      if (!fleet.isAlive() && Duration.between(start, Instant.now()).toSeconds() > 60) {
        break;
      }
      Thread.sleep(3000);
    }
  }

}
