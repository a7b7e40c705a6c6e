package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.BuiltinCollectors;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigLoader;
import io.fleetscope.agent.publish.ProducerFactory;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.io.KafkaEndpoints;
import io.fleetscope.flink.io.KafkaOutputSink;
import io.fleetscope.flink.io.KafkaTelemetrySource;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.loadgen.LoadgenMain;
import io.fleetscope.loadgen.LoadgenOptions;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.sink.SinkConfig;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.SchemaRegistryServer;
import io.fleetscope.stack.services.TestCertificates;
import io.fleetscope.stack.services.TestServices;
import io.fleetscope.stack.services.registry.RegistryAuth;
import io.fleetscope.stack.services.registry.RegistryUsers;
import io.fleetscope.streams.CorrelatorApp;
import io.fleetscope.streams.CorrelatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every component's Kafka client against the local broker with a SASL_SSL (SCRAM-SHA-512)
 * listener and ACLs, each as its own user with only its own ACLs, and the registry with basic auth
 * for writes: the agent's producer, the loadgen, the sink, the correlator, the analytics' Kafka
 * source and sink on a MiniCluster, and {@code fleetscope tail}. A user without ACLs is refused with
 * the broker's reason; no password shows in any log.
 */
class SecuredPipelineIT {
  @TempDir static Path tmp;
  private static LocalKafka kafka;
  private static SchemaRegistryServer registry;
  private static final Map<String, String> KAFKA_PASSWORDS = new LinkedHashMap<>();
  private static final Map<String, String> REGISTRY_PASSWORDS = new LinkedHashMap<>();
  private static final ByteArrayOutputStream ownLog = new ByteArrayOutputStream();
  private static PrintStream originalErr;
  private static final List<String> RAW = List.of(Topics.GPU, Topics.GPU_XID, Topics.IB, Topics.PDU, Topics.COOLANT, Topics.CKPT);

  @BeforeAll
  static void start() {
    originalErr = System.err;
    System.setErr(new PrintStream(new Tee(originalErr, ownLog), true, StandardCharsets.UTF_8));
    kafka = LocalKafka.start(LocalKafka.Config.defaults(tmp.resolve("kafka"))
        .withSecurity(LocalKafka.Security.create(tmp.resolve("tls"))));
    kafka.createTopics(Topics.settings());
    for (String user : List.of("registry", "agent", "loadgen", "sink", "correlator", "analytics", "ops", "nobody")) {
      KAFKA_PASSWORDS.put(user, TestCertificates.randomPassword());
      REGISTRY_PASSWORDS.put(user, TestCertificates.randomPassword());
      kafka.addScramUser(user, KAFKA_PASSWORDS.get(user));
    }
    kafka.allow("registry", ResourceType.TOPIC, "_schemas", PatternType.LITERAL,
        AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE);
    for (String t : RAW) {
      kafka.allow("agent", ResourceType.TOPIC, t, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
    }
    kafka.allow("agent", ResourceType.TOPIC, Topics.DLQ, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
    kafka.allow("loadgen", ResourceType.TOPIC, "fleet.", PatternType.PREFIXED, AclOperation.WRITE, AclOperation.DESCRIBE);
    kafka.allow("sink", ResourceType.TOPIC, Topics.GPU, PatternType.LITERAL, AclOperation.READ);
    kafka.allow("sink", ResourceType.TOPIC, Topics.DLQ, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
    kafka.allow("sink", ResourceType.GROUP, "fleetscope-sink", PatternType.PREFIXED, AclOperation.READ);
    kafka.allow("correlator", ResourceType.TOPIC, Topics.ANOMALIES, PatternType.LITERAL, AclOperation.READ);
    kafka.allow("correlator", ResourceType.TOPIC, Topics.INVENTORY, PatternType.LITERAL, AclOperation.READ);
    // the jobs an incident hits: job allocations and each job's last completed checkpoint
    kafka.allow("correlator", ResourceType.TOPIC, Topics.JOBS, PatternType.LITERAL, AclOperation.READ);
    kafka.allow("correlator", ResourceType.TOPIC, Topics.CKPT, PatternType.LITERAL, AclOperation.READ);
    kafka.allow("correlator", ResourceType.TOPIC, Topics.ALERTS, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
    kafka.allow("correlator", ResourceType.TOPIC, Topics.DLQ, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
    kafka.allow("correlator", ResourceType.TOPIC, "fleetscope-correlator", PatternType.PREFIXED, AclOperation.ALL);
    kafka.allow("correlator", ResourceType.GROUP, "fleetscope-correlator", PatternType.PREFIXED, AclOperation.ALL);
    kafka.allow("analytics", ResourceType.TOPIC, Topics.GPU, PatternType.LITERAL, AclOperation.READ);
    kafka.allow("analytics", ResourceType.TOPIC, Topics.DLQ, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
    kafka.allow("analytics", ResourceType.TOPIC, Topics.ANOMALIES, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
    kafka.allow("analytics", ResourceType.GROUP, "fleetscope-analytics", PatternType.PREFIXED, AclOperation.READ);
    kafka.allow("ops", ResourceType.TOPIC, "fleet.", PatternType.PREFIXED, AclOperation.READ);
    Map<String, String> registryUsers = new LinkedHashMap<>(REGISTRY_PASSWORDS);
    registryUsers.remove("nobody");
    registry = SchemaRegistryServer.start(kafka.bootstrapServers(), KafkaClientConfig.load(configFile("registry")), 0,
        "_schemas", RegistryAuth.basic(RegistryUsers.of(registryUsers), false));
  }

  @AfterAll
  static void stop() {
    if (registry != null) {
      registry.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    System.setErr(originalErr);
  }

  /** The Kafka client properties file of {@code user}: SASL_SSL as that user, and its registry credentials. */
  static Path configFile(String user) {
    Path f = tmp.resolve(user + ".properties");
    if (!Files.exists(f)) {
      StringBuilder b = new StringBuilder("# " + user + "\n");
      kafka.clientSecurity(user, KAFKA_PASSWORDS.get(user)).forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
      b.append("basic.auth.credentials.source=USER_INFO\n");
      b.append("basic.auth.user.info=").append(user).append(':').append(REGISTRY_PASSWORDS.get(user)).append('\n');
      try {
        Files.writeString(f, b.toString());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return f;
  }

  private record Out(int code, String out, String err) {}

  private static Out fleetscope(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
    return new Out(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  private static Out tail(String user, String topic) {
    return fleetscope("tail", topic, "--from-beginning", "--idle-timeout", "8s", "--kafka", kafka.bootstrapServers(),
        "--kafka-config", configFile(user).toString(), "--registry", registry.url());
  }

  private static GpuSample gpu(String cluster, String node, int seq) {
    return GpuSample.newBuilder().setTs(1_767_225_600_000L + seq * 1000L).setCluster(cluster).setNode(node)
        .setAgentSeq(seq).setGpu(0).build();
  }

  private static final java.util.concurrent.atomic.AtomicInteger agentRuns = new java.util.concurrent.atomic.AtomicInteger();

  @Test
  void theAgentPublishesAndTheCliToolReadsBack() throws Exception {
    String cluster = "secured-agent-" + agentRuns.incrementAndGet();
    Path yaml = tmp.resolve("agent.yaml");
    Files.writeString(yaml, String.join("\n",
        "cluster: " + cluster,
        "node: node-a",
        "kafka:",
        "  bootstrap: " + kafka.bootstrapServers(),
        "  registry_url: " + registry.url(),
        "  config_file: agent.properties",
        ""));
    configFile("agent");
    AgentConfig cfg = new ConfigLoader(BuiltinCollectors.registry()).load(yaml);
    AvroSerializer<SpecificRecord> ser = ProducerFactory.serializer(cfg);
    try (Producer<String, byte[]> p = ProducerFactory.create(cfg)) {
      for (int i = 0; i < 3; i++) {
        p.send(new ProducerRecord<>(Topics.GPU, "node-a", ser.serialize(Topics.GPU, gpu(cluster, "node-a", i))))
            .get(60, TimeUnit.SECONDS);
      }
    }
    Out tail = tail("ops", Topics.GPU);
    assertThat(tail.code()).as(tail.err()).isZero();
    assertThat(tail.out().lines().filter(l -> l.contains("\"cluster\":\"" + cluster + "\""))).hasSize(3);
  }

  @Test
  void aUserWithoutAclsIsRefusedWithTheBrokersReason() {
    Out refused = tail("nobody", Topics.GPU);
    assertThat(refused.code()).isEqualTo(1);
    assertThat(refused.err()).contains("TopicAuthorizationException").contains("Not authorized to access topics: ["
        + Topics.GPU + "]");
  }

  @Test
  void theLoadgenPublishes() throws Exception {
    long before = endOffset(Topics.GPU);
    LoadgenOptions o = LoadgenOptions.parse(new String[] {"--nodes", "1", "--gpus-per-node", "2", "--duration", "5s",
        "--rate", "max", "--cluster", "secured-loadgen", "--kafka", kafka.bootstrapServers(), "--kafka-config",
        configFile("loadgen").toString(), "--registry", registry.url()});
    assertThat(LoadgenMain.run(o)).isZero();
    assertThat(endOffset(Topics.GPU) - before).isGreaterThanOrEqualTo(10);
  }

  @Test
  void theSinkStoresWhatItReads() throws Exception {
    try (Producer<String, SpecificRecord> p = io.fleetscope.loadgen.output.KafkaSink.producer(kafka.bootstrapServers(),
        KafkaClientConfig.load(configFile("loadgen")), KafkaClientConfig.load(configFile("loadgen")).registryClient(registry.url()))) {
      for (int i = 0; i < 5; i++) {
        p.send(new ProducerRecord<>(Topics.GPU, "node-s", gpu("secured-sink", "node-s", i))).get(60, TimeUnit.SECONDS);
      }
    }
    LocalPostgres pg = TestServices.postgres();
    String jdbc = pg.createDatabase("secured_sink");
    Map<String, String> m = new LinkedHashMap<>();
    m.put(SinkConfig.KAFKA.name(), kafka.bootstrapServers());
    m.put(SinkConfig.KAFKA_CONFIG.name(), configFile("sink").toString());
    m.put(SinkConfig.REGISTRY.name(), registry.url());
    m.put(SinkConfig.JDBC_URL.name(), jdbc);
    m.put(SinkConfig.JDBC_USER.name(), LocalPostgres.SUPERUSER);
    m.put(SinkConfig.GROUP_ID.name(), "fleetscope-sink-secured");
    m.put(SinkConfig.TOPICS.name(), Topics.GPU);
    m.put(SinkConfig.WORKERS.name(), "1");
    m.put(SinkConfig.ROLLUP_INTERVAL.name(), "0");
    m.put(SinkConfig.RETENTION_INTERVAL.name(), "0");
    m.put(SinkConfig.METRICS_PORT.name(), "0"); // a free port: the local stack's sink may hold 18084
    try (SinkService sink = new SinkService(SinkConfig.of(m))) {
      sink.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      long rows = 0;
      while (rows < 5 && System.nanoTime() < deadline) {
        Thread.sleep(500);
        try (Connection c = java.sql.DriverManager.getConnection(jdbc); Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT count(*) FROM gpu WHERE cluster = 'secured-sink'")) {
          rs.next();
          rows = rs.getLong(1);
        }
      }
      assertThat(rows).isEqualTo(5);
    }
  }

  @Test
  void theCorrelatorRunsAsItsOwnUser() throws Exception {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(CorrelatorConfig.KAFKA, kafka.bootstrapServers());
    m.put(CorrelatorConfig.KAFKA_CONFIG, configFile("correlator").toString());
    m.put(CorrelatorConfig.REGISTRY, registry.url());
    m.put(CorrelatorConfig.APPLICATION_ID, "fleetscope-correlator-secured");
    m.put(CorrelatorConfig.HTTP_PORT, "-1");
    m.put(CorrelatorConfig.STATE_DIR, tmp.resolve("streams").toString());
    try (CorrelatorApp.Running running = CorrelatorApp.start(CorrelatorConfig.of(m))) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (running.streams().state() != KafkaStreams.State.RUNNING && running.streams().state().isRunningOrRebalancing()
          && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(running.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);

      // an anomaly the analytics publish becomes an incident on fleet.alerts.v1, written by the correlator's user
      Map<String, String> labels = new LinkedHashMap<>();
      labels.put("cluster", "secured-correlator");
      labels.put("alertname", "CoolantLeak");
      labels.put("severity", "critical");
      labels.put("device", "cdu-9");
      long now = System.currentTimeMillis();
      io.fleetscope.avro.Anomaly leak = io.fleetscope.avro.Anomaly.newBuilder().setTs(now)
          .setFingerprint(io.fleetscope.schemas.contract.Fingerprint.of(labels)).setStatus("firing").setLabels(labels)
          .setAnnotations(Map.of("summary", "leak under test")).setStartsAt(now).setSource("secured-it").build();
      KafkaClientConfig analytics = KafkaClientConfig.load(configFile("analytics"));
      try (Producer<String, SpecificRecord> p = io.fleetscope.loadgen.output.KafkaSink.producer(kafka.bootstrapServers(),
          analytics, analytics.registryClient(registry.url()))) {
        p.send(new ProducerRecord<>(Topics.ANOMALIES, leak.getFingerprint(), leak)).get(60, TimeUnit.SECONDS);
      }
      long alertDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      boolean seen = false;
      while (!seen && System.nanoTime() < alertDeadline) {
        Out alerts = tail("ops", Topics.ALERTS);
        assertThat(alerts.code()).as(alerts.err()).isZero();
        seen = alerts.out().contains("secured-correlator");
      }
      assertThat(seen).as("an incident for the anomaly on " + Topics.ALERTS).isTrue();
    }
  }

  /** Copies each GPU sample into a dead letter: the analytics' Kafka source and Kafka sink, nothing else. */
  static final class ToDeadLetter implements MapFunction<SpecificRecord, SpecificRecord> {
    @Override
    public SpecificRecord map(SpecificRecord r) {
      GpuSample g = (GpuSample) r;
      return DeadLetter.newBuilder().setTs(g.getTs()).setStage("secured-it").setReason("copy of " + g.getCluster())
          .setSourceTopic(Topics.GPU).build();
    }
  }

  @Test
  void theAnalyticsReadAndWriteThroughTheirKafkaConnectors() throws Exception {
    KafkaEndpoints ep = new KafkaEndpoints(kafka.bootstrapServers(), registry.url(), "fleetscope-analytics-secured", true,
        KafkaClientConfig.load(configFile("analytics")));
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    DataStream<SpecificRecord> in = new KafkaTelemetrySource(ep, WallClock.system(), true)
        .open(env, Topics.require(Topics.GPU), WatermarkStrategy.noWatermarks());
    new KafkaOutputSink(ep).attach(in.filter(r -> r instanceof GpuSample).returns(in.getType())
        .map(new ToDeadLetter()).returns(in.getType()));
    env.execute("secured-analytics-it");
    Out dlq = tail("ops", Topics.DLQ);
    assertThat(dlq.code()).as(dlq.err()).isZero();
    assertThat(dlq.out().lines().filter(l -> l.contains("\"stage\":\"secured-it\""))).isNotEmpty();
  }

  @Test
  void noLogShowsAPassword() throws Exception {
    theAgentPublishesAndTheCliToolReadsBack();
    Path dir = kafka.config().dataDir();
    String logs = Files.readString(dir.resolve("broker.log")) + Files.readString(dir.resolve("stdout.log"))
        + ownLog.toString(StandardCharsets.UTF_8);
    assertThat(logs).contains("registry started");
    List<String> secrets = new ArrayList<>(KAFKA_PASSWORDS.values());
    secrets.addAll(REGISTRY_PASSWORDS.values());
    LocalKafka.Security s = kafka.config().security();
    secrets.addAll(List.of(s.adminPassword(), s.certs().keystorePassword(), s.certs().truststorePassword()));
    for (String secret : secrets) {
      assertThat(logs).as("a log line shows a secret").doesNotContain(secret);
    }
  }

  private static long endOffset(String topic) throws Exception {
    try (var admin = kafka.admin()) {
      var parts = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions();
      Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> req = new LinkedHashMap<>();
      parts.forEach(p -> req.put(new org.apache.kafka.common.TopicPartition(topic, p.partition()),
          org.apache.kafka.clients.admin.OffsetSpec.latest()));
      return admin.listOffsets(req).all().get(30, TimeUnit.SECONDS).values().stream()
          .mapToLong(org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
    }
  }

  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws java.io.IOException {
      a.write(c);
      synchronized (b) {
        b.write(c);
      }
    }

    @Override
    public void write(byte[] buf, int off, int len) throws java.io.IOException {
      a.write(buf, off, len);
      synchronized (b) {
        b.write(buf, off, len);
      }
    }
  }
}
