package io.fleetscope.flink;

import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.io.KafkaEndpoints;
import io.fleetscope.flink.io.KafkaOutputSink;
import io.fleetscope.flink.io.KafkaTelemetrySource;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.TopicBootstrap;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.RegistryOption;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.graph.StreamingJobGraphGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The live analytics job: every analytic against Kafka and the schema registry. The entry point of
 * the job jar ({@code fleetscope-analytics.jar}), so it runs unchanged under {@code flink run}, the
 * REST API ({@code /jars/:id/run}) and the Flink Kubernetes Operator ({@code job.jarURI}); there the
 * cluster's configuration decides the state backend, checkpoint storage and restart strategy, and
 * the submitter decides the parallelism and the savepoint to restore.
 *
 * <p>Options (flags override the environment, {@code FLEETSCOPE_KAFKA} and {@code FLEETSCOPE_REGISTRY},
 * which override the local defaults 127.0.0.1:19092 and http://127.0.0.1:18081):
 * {@code --kafka HOST:PORT --registry URL [--config FILE] [--group-id ID] [--from-latest]
 * [--only a,b] [--checkpoint-dir DIR] [--minicluster]}. {@code --minicluster} runs the job on a
 * MiniCluster inside this JVM (benchmarks and single-process use) with file checkpoints under
 * {@code --checkpoint-dir}.
 */
public final class RunMain {
  private static final Logger log = LoggerFactory.getLogger(RunMain.class);

  /** The job's name on the cluster; {@code fleetscope run} and {@code down} find it by this name. */
  public static final String JOB_NAME = "fleetscope-analytics";

  /** The parsed command line. */
  record Options(String bootstrap, String registry, Path config, String groupId, boolean fromEarliest,
      List<String> only, Path checkpointDir, boolean miniCluster, KafkaClientConfig kafkaClient, String topicPrefix) {

    Options(String bootstrap, String registry, Path config, String groupId, boolean fromEarliest,
        List<String> only, Path checkpointDir, boolean miniCluster) {
      this(bootstrap, registry, config, groupId, fromEarliest, only, checkpointDir, miniCluster, KafkaClientConfig.none(), "");
    }

    /** Parses {@code args}; {@code env} supplies FLEETSCOPE_KAFKA / FLEETSCOPE_REGISTRY. Mistakes throw IllegalArgumentException. */
    static Options parse(String[] args, Map<String, String> env) {
      return Flags.parse(args).options(env);
    }
  }

  static final String USAGE = "usage: RunMain [--kafka HOST:PORT] [--kafka-config FILE] [--registry URL] [--config FILE] [--group-id ID]"
      + " [--from-latest] [--only a,b] [--checkpoint-dir DIR] [--minicluster] [--topic-prefix P]";

  /** The job's flags, as picocli reads them. */
  @Command(name = "RunMain", sortOptions = false, description = "The live analytics job: every analytic against Kafka.")
  static final class Flags {
    @Mixin HelpOption help;
    @Mixin KafkaOption kafka;
    @Mixin RegistryOption registry;

    @Option(names = "--config", paramLabel = "FILE", description = "analytics settings (YAML; default: the built-in ones)")
    Path config;

    @Option(names = "--group-id", paramLabel = "ID", description = "Kafka consumer group (default: ${DEFAULT-VALUE})")
    String groupId = JOB_NAME;

    @Option(names = "--from-latest", description = "start at the end of each topic when the group has no offsets"
        + " (default: the beginning)")
    boolean fromLatest;

    @Option(names = "--only", paramLabel = "A,B", split = ",", description = "run only these analytics (default: every one)")
    List<String> only;

    @Option(names = "--checkpoint-dir", paramLabel = "DIR", description = "checkpoint directory (default: the cluster's;"
        + " with --minicluster .fleetscope/flink-checkpoints)")
    Path checkpointDir;

    @Option(names = "--minicluster", description = "run on a MiniCluster inside this JVM instead of the cluster it was submitted to")
    boolean miniCluster;

    @Option(names = "--topic-prefix", paramLabel = "P",
        description = "read and write the topics P<topic> (a set written by replay --prefix P; created when missing);"
            + " give the run its own --group-id (default: the topics themselves)")
    String topicPrefix = "";

    @Spec CommandSpec spec;

    /** Parses {@code args}; mistakes throw IllegalArgumentException with the usage. */
    static Flags parse(String[] args) {
      Flags f = new Flags();
      try {
        CommandLines.create(f).parseArgs(args);
      } catch (CommandLine.ParameterException e) {
        throw new IllegalArgumentException(e.getMessage() + "; " + USAGE, e);
      }
      return f;
    }

    Options options(Map<String, String> env) {
      if (!topicPrefix.isEmpty() && !topicPrefix.matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException("--topic-prefix may hold letters, digits, '.', '_' and '-' only; got '" + topicPrefix + "'");
      }
      return new Options(kafka.bootstrap(env), registry.url(env), config, groupId, !fromLatest, only, checkpointDir,
          miniCluster, kafka.client(env), topicPrefix);
    }
  }

  private RunMain() {}

  public static void main(String[] args) throws Exception {
    Flags flags = Flags.parse(args);
    if (flags.spec.commandLine().isUsageHelpRequested()) {
      flags.spec.commandLine().usage(System.out);
      return;
    }
    Options o = flags.options(System.getenv());
    AnalyticsConfig cfg = config(o);
    StreamExecutionEnvironment env = o.miniCluster()
        ? miniCluster(cfg.pipeline(), o.checkpointDir() == null ? Path.of(".fleetscope", "flink-checkpoints") : o.checkpointDir())
        : StreamExecutionEnvironment.getExecutionEnvironment(jobConfiguration(cfg.pipeline(), o.checkpointDir()));
    if (!o.topicPrefix().isEmpty()) {
      List<String> created = TopicBootstrap.ensure(o.bootstrap(), o.kafkaClient(), Topics.all().values().stream()
          .map(t -> t.settings().forReplay(o.topicPrefix())).toList());
      log.info("analytics topic_prefix={} created={}", o.topicPrefix(), created);
    }
    List<Analytic> analytics = build(o, cfg, env);
    log.info("analytics starting engine={} bootstrap={} kafka_client=\"{}\" registry={} group={} topic_prefix={} parallelism={}"
        + " max_parallelism={} analytics={}", o.miniCluster() ? "minicluster" : "cluster", o.bootstrap(),
        o.kafkaClient().describe(), io.fleetscope.serde.RegistryUrl.parse(o.registry()), o.groupId(), o.topicPrefix(),
        env.getParallelism(), env.getMaxParallelism(), analytics.stream().map(Analytic::name).toList());
    env.execute(JOB_NAME);
  }

  /**
   * The operators of the job these arguments build: Flink's operator id (hex, as its restore errors
   * print it) to the uid we gave the operator. Builds the graph without running it.
   */
  public static Map<String, String> operatorUids(String[] args) {
    Options o = Options.parse(args, System.getenv());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, new Configuration());
    build(o, config(o), env);
    Map<String, String> out = new TreeMap<>();
    for (StreamNode n : env.getStreamGraph().getStreamNodes()) {
      String uid = n.getTransformationUID();
      if (uid != null) {
        out.put(StreamingJobGraphGenerator.generateOperatorID(uid).toHexString(), uid);
      }
    }
    return out;
  }

  private static AnalyticsConfig config(Options o) {
    return o.config() == null ? AnalyticsConfig.defaults() : AnalyticsConfig.load(o.config());
  }

  private static List<Analytic> build(Options o, AnalyticsConfig cfg, StreamExecutionEnvironment env) {
    List<Analytic> analytics = o.only() == null ? AnalyticCatalog.all() : AnalyticCatalog.select(o.only());
    KafkaEndpoints ep = new KafkaEndpoints(o.bootstrap(), o.registry(), o.groupId(), o.fromEarliest(), o.kafkaClient(),
        o.topicPrefix());
    new FleetAnalytics(new KafkaTelemetrySource(ep, WallClock.system()), new KafkaOutputSink(ep), cfg, analytics,
        WallClock.system()).build(env);
    return analytics;
  }

  /**
   * What the job itself sets on a cluster: streaming mode, the checkpoint interval, and the
   * checkpoint directory only when one is given (otherwise the cluster's).
   */
  static Configuration jobConfiguration(PipelineConfig p, Path checkpointDir) {
    Configuration conf = new Configuration();
    conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(p.checkpointIntervalMs()));
    if (checkpointDir != null) {
      conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toAbsolutePath().toUri().toString());
    }
    return conf;
  }

  /**
   * A MiniCluster in this JVM with checkpointing. Checkpoints go to files under {@code checkpointDir}:
   * the JobManager's in-memory storage refuses state over 5 MB, which a fleet of a few thousand GPUs
   * already exceeds (and then no Kafka offset is ever committed). The network buffer pool is sized
   * for the job graph of every analytic at once.
   */
  public static StreamExecutionEnvironment miniCluster(PipelineConfig p, Path checkpointDir) {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toAbsolutePath().toUri().toString());
    conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.ofMebiBytes(256));
    conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(256));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(p.parallelism(), conf);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.enableCheckpointing(p.checkpointIntervalMs());
    return env;
  }
}
