package io.fleetscope.cli;

import io.fleetscope.flink.RunMain;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.stack.services.FreePorts;
import io.fleetscope.stack.services.StackConfig;
import io.fleetscope.stack.services.flink.FlinkJobs;
import io.fleetscope.stack.services.flink.FlinkRest;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import java.util.concurrent.Callable;

/**
 * {@code run [--config FILE] [--engine cluster|minicluster] [--fresh] [--allow-non-restored-state]
 * [--parallelism N] [--topic-prefix P] [--kafka ..] [--registry ..] [--jdbc ..] [--alertmanager ..] [--console-port N] [--flink URL]}: creates
 * the topics that are missing, submits the analytics to the Flink session cluster (resuming from the
 * newest savepoint or retained checkpoint unless {@code --fresh}), and runs the correlator, sink and
 * console until interrupted or until one of them exits. Ctrl-C stops the analytics job with a
 * savepoint. {@code --engine minicluster} runs the analytics on a MiniCluster in a JVM of their own
 * instead (no cluster, no restore; for comparison and single-process use). {@code --topic-prefix P}
 * runs only the analytics (MiniCluster) and the correlator over the topic set that
 * {@code replay --prefix P} writes, beside the stack ({@link Pipeline#prefixed}).
 */
@Command(name = "run", sortOptions = false,
    description = {"Submits the analytics to the Flink session cluster (resuming from the newest savepoint or retained"
        + " checkpoint) and runs the correlator, sink and console until Ctrl-C, which stops the analytics with a savepoint."})
final class RunCommand implements Callable<Integer> {

  /** Where the analytics run. */
  enum Engine { cluster, minicluster }

  @Mixin HelpOption help;

  @Option(names = "--config", paramLabel = "FILE", description = "analytics settings (YAML; default: the built-in ones)")
  Path configFile;

  @Option(names = "--engine", paramLabel = "cluster|minicluster",
      description = "cluster: a job on the Flink session cluster; minicluster: a MiniCluster in a JVM of its own, no restore"
          + " (default: cluster; minicluster with --topic-prefix)")
  Engine engine;

  @Option(names = "--fresh", description = "start the analytics with empty state even when a restore point exists")
  boolean fresh;

  @Option(names = "--allow-non-restored-state", description = "drop the state of operators this program no longer has")
  boolean allowNonRestoredState;

  @Option(names = "--parallelism", paramLabel = "N", description = "the analytics' parallelism (default: pipeline.parallelism"
      + " of the settings)")
  Integer parallelismFlag;

  @Option(names = "--topic-prefix", paramLabel = "P",
      description = "run only the analytics (on a MiniCluster) and the correlator, over the topics P<topic> that replay"
          + " --prefix P writes, beside the stack: consumer group P" + RunMain.JOB_NAME
          + ", application id Pfleetscope-correlator, state and logs under <state>/prefix-P, incidents API on a free port;"
          + " no sink, no console (default: the stack's own topics)")
  String topicPrefix = "";

  @Mixin EndpointOptions endpoints;

  private final PrintStream out;
  private final PrintStream err;

  RunCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws Exception {
    if (!topicPrefix.isEmpty()) {
      checkPrefixed(topicPrefix, this.engine, fresh || allowNonRestoredState || parallelismFlag != null);
    }
    Endpoints e = endpoints.resolve(System.getenv());
    Path config = configFile == null ? null : configFile.toAbsolutePath();
    String engine = (this.engine == null ? Engine.cluster : this.engine).name();
    StackConfig stack = StackCommand.config();
    Path state = stack.stateDir();
    if (!topicPrefix.isEmpty()) {
      return runPrefixed(e, config, prefixedStateDir(state, topicPrefix));
    }
    List<String> created = io.fleetscope.schemas.TopicBootstrap.ensureAll(e.kafka(), e.kafkaClient());
    out.printf("run topics_created=%d kafka=%s%n", created.size(), e.kafka());

    ClusterAnalytics analytics = null;
    ClusterAnalytics.Deployed job = null;
    if (engine.equals("cluster")) {
      int parallelism = parallelismFlag != null ? parallelismFlag
          : (config == null ? AnalyticsConfig.defaults() : AnalyticsConfig.load(config)).pipeline().parallelism();
      analytics = new ClusterAnalytics(new FlinkRest(e.flink()), new ClusterAnalytics.Options(
          ClusterAnalytics.jobJar(StackCommand.root()), Pipeline.analyticsArgs(e, config), parallelism,
          stack.flinkConfig().dir(), fresh, allowNonRestoredState), out);
      try {
        job = analytics.deploy();
      } catch (FlinkJobs.UnrestorableStateException ex) {
        err.println(ClusterAnalytics.unrestorableLine(ex));
        return 1;
      }
      if (!job.alreadyRunning()) {
        analytics.pruneAfterFirstCheckpoint(job.jobId());
      }
    }
    Pipeline p = new Pipeline(state, Pipeline.services(e, state, config, engine.equals("minicluster")));
    ClusterAnalytics stopAnalytics = job != null && !job.alreadyRunning() ? analytics : null;
    String jobId = job == null ? null : job.jobId();
    java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stopping.set(true);
      p.close();
      if (stopAnalytics != null) {
        try {
          stopAnalytics.stop(jobId);
        } catch (RuntimeException ex) {
          err.printf("run analytics=stop-failed job=%s error=\"%s\" (its retained checkpoints stay)%n", jobId, ex.getMessage());
        }
      }
    }, "pipeline-stop"));
    NotificationReceiver receiver = startReceiver(state, out, err);
    p.start(out, false);
    out.printf("run console=%s incidents=http://127.0.0.1:%d/api/v1/incidents alertmanager=%s%s (Ctrl-C stops)%n",
        e.consoleUrl(), Pipeline.CORRELATOR_HTTP_PORT, e.alertmanager(), jobId == null ? "" : " flink=" + e.flink());
    JobWatch watch = jobId == null ? null : new JobWatch(new FlinkRest(e.flink()), jobId, out);
    while (!stopping.get()) {
      String dead = p.firstDead();
      if (dead != null && !stopping.get()) {
        err.printf("run status=failed service=%s see=%s%n", dead, state.resolve("logs"));
        return 1;
      }
      if (watch != null && !watch.check()) {
        err.printf("run status=failed service=analytics job=%s see=%s%n", jobId, e.flink());
        return 1;
      }
      Thread.sleep(1000);
    }
    Thread.sleep(Long.MAX_VALUE); // the shutdown hook ends the JVM
    return 0;
  }

  /**
   * Refuses what {@code --topic-prefix} cannot honour: a prefix with other characters than letters,
   * digits, '.', '_' and '-', the cluster engine, and the cluster engine's options.
   */
  static void checkPrefixed(String prefix, Engine engine, boolean clusterOptions) {
    if (!prefix.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("--topic-prefix may hold letters, digits, '.', '_' and '-' only; got '" + prefix + "'");
    }
    if (engine == Engine.cluster || clusterOptions) {
      throw new IllegalArgumentException("--topic-prefix runs the analytics on a MiniCluster of their own (no restore):"
          + " --engine cluster, --fresh, --allow-non-restored-state and --parallelism do not apply");
    }
  }

  /** Where {@code run --topic-prefix P} keeps its logs, pid files, checkpoints and Kafka Streams state. */
  static Path prefixedStateDir(Path state, String prefix) {
    return state.resolve("prefix-" + prefix);
  }

  /**
   * {@code run --topic-prefix P}: the analytics and the correlator over the prefixed topic set until
   * Ctrl-C or until one of them exits; the stack's own services are not touched.
   */
  private int runPrefixed(Endpoints e, Path config, Path state) throws Exception {
    int port = FreePorts.pick();
    Pipeline p = new Pipeline(state, Pipeline.prefixed(e, state, config, topicPrefix, port));
    AtomicBoolean stopping = new AtomicBoolean();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stopping.set(true);
      p.close();
    }, "pipeline-stop"));
    p.start(out, false);
    out.printf("run topic_prefix=%s group=%s%s incidents=http://127.0.0.1:%d/api/v1/incidents alertmanager=%s state=%s"
        + " (Ctrl-C stops)%n", topicPrefix, topicPrefix, RunMain.JOB_NAME, port, e.alertmanager(), state);
    while (!stopping.get()) {
      String dead = p.firstDead();
      if (dead != null && !stopping.get()) {
        err.printf("run status=failed service=%s see=%s%n", dead, state.resolve("logs"));
        return 1;
      }
      Thread.sleep(1000);
    }
    Thread.sleep(Long.MAX_VALUE); // the shutdown hook ends the JVM
    return 0;
  }

  /** Prints the analytics job's state changes (RUNNING, RESTARTING, ...); false once it has ended. */
  static final class JobWatch {
    private final FlinkRest rest;
    private final String jobId;
    private final PrintStream out;
    private String last = "RUNNING";
    private long nextCheck;

    JobWatch(FlinkRest rest, String jobId, PrintStream out) {
      this.rest = rest;
      this.jobId = jobId;
      this.out = out;
    }

    boolean check() {
      long now = System.currentTimeMillis();
      if (now < nextCheck) {
        return true;
      }
      nextCheck = now + 5000;
      String state;
      try {
        state = rest.jobState(jobId);
      } catch (RuntimeException e) {
        state = "UNREACHABLE";
      }
      if (!state.equals(last)) {
        out.printf("run analytics=%s job=%s%n", state.toLowerCase(), jobId);
        last = state;
      }
      return !List.of("FAILED", "CANCELED", "FINISHED").contains(state);
    }
  }

  /** The local pager/ticket webhook receiver, unless something else already listens on its port. */
  static NotificationReceiver startReceiver(Path state, PrintStream out, PrintStream err) {
    try {
      NotificationReceiver r = new NotificationReceiver(NotificationReceiver.DEFAULT_PORT,
          state.resolve("logs/notifications.log"), out).start();
      out.printf("run notifications=http://127.0.0.1:%d/{pager,ticket} log=%s%n", NotificationReceiver.DEFAULT_PORT,
          state.resolve("logs/notifications.log"));
      return r;
    } catch (java.io.IOException e) {
      err.printf("run notifications=not-started port=%d reason=\"%s\"%n", NotificationReceiver.DEFAULT_PORT, e.getMessage());
      return null;
    }
  }

}
