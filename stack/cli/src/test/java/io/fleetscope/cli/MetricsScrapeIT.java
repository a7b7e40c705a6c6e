package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.cli.metrics.PromQlNames;
import io.fleetscope.cli.metrics.ScrapedNames;
import io.fleetscope.console.ConsoleConfig;
import io.fleetscope.console.ConsoleServer;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.contract.Fingerprint;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.sink.SinkConfig;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.stack.services.ChildProcesses;
import io.fleetscope.stack.services.FreePorts;
import io.fleetscope.stack.services.JavaClasspath;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.SchemaRegistryServer;
import io.fleetscope.stack.services.TestServices;
import io.fleetscope.streams.CorrelatorApp;
import io.fleetscope.streams.CorrelatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every long-running component, really running, serves Prometheus metrics, and every metric name a
 * Grafana dashboard's PromQL reads is among what that component exposes (taken from the scrape, not
 * from a list): the registry, the sink, the correlator and the console on their HTTP listeners, the
 * node agent (its jar, as a process) on its metrics port, and the analytics through Flink's own
 * Prometheus reporter (a MiniCluster job, its PushGateway reporter pushing to a loopback receiver:
 * the same names as the scrape reporter, without a listener on every interface).
 */
class MetricsScrapeIT {
  private static final String CL = "metrics-it";
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path tmp;

  @Test
  void everyComponentServesTheMetricsTheDashboardsRead() throws Exception {
    LocalKafka kafka = TestServices.kafka();
    SchemaRegistryServer registry = TestServices.registry();
    LocalPostgres pg = TestServices.postgres();
    String jdbc = pg.createDatabase("metrics_scrape");
    for (Topics.TopicSpec t : Topics.all().values()) {
      if (t.compacted()) {
        kafka.createCompactedTopic(t.name(), 3);
      } else {
        kafka.createTopic(t.name(), 3);
      }
    }
    Map<String, Set<String>> scraped = new TreeMap<>();
    Map<String, String> sinkSettings = new LinkedHashMap<>();
    sinkSettings.put(SinkConfig.KAFKA.name(), kafka.bootstrapServers());
    sinkSettings.put(SinkConfig.REGISTRY.name(), registry.url());
    sinkSettings.put(SinkConfig.JDBC_URL.name(), jdbc);
    sinkSettings.put(SinkConfig.JDBC_USER.name(), LocalPostgres.SUPERUSER);
    sinkSettings.put(SinkConfig.GROUP_ID.name(), "metrics-it-sink");
    sinkSettings.put(SinkConfig.WORKERS.name(), "1");
    // what this test sends: the shared broker's topics may hold other tests' records
    sinkSettings.put(SinkConfig.TOPICS.name(), Topics.ANOMALIES + "," + Topics.ALERTS + "," + Topics.DLQ);
    sinkSettings.put(SinkConfig.ROLLUP_INTERVAL.name(), "0");
    sinkSettings.put(SinkConfig.RETENTION_INTERVAL.name(), "0");
    sinkSettings.put(SinkConfig.METRICS_PORT.name(), "0");

    Map<String, String> corr = new LinkedHashMap<>();
    corr.put(CorrelatorConfig.KAFKA, kafka.bootstrapServers());
    corr.put(CorrelatorConfig.REGISTRY, registry.url());
    corr.put(CorrelatorConfig.APPLICATION_ID, "metrics-it-correlator");
    corr.put(CorrelatorConfig.HTTP_PORT, "0");
    corr.put(CorrelatorConfig.STATE_DIR, tmp.resolve("streams").toString());
    corr.put(CorrelatorConfig.ALERTMANAGER, "");

    try (NotificationReceiver receiver = new NotificationReceiver(0, tmp.resolve("notifications.log"),
             new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
         SinkService sink = new SinkService(SinkConfig.of(sinkSettings))) {
      receiver.start();
      corr.put(CorrelatorConfig.WEBHOOK, "http://127.0.0.1:" + receiver.port() + "/");
      sink.start();
      try (CorrelatorApp.Running correlator = CorrelatorApp.start(CorrelatorConfig.of(corr));
           ConsoleServer console = new ConsoleServer(ConsoleConfig.defaults().withPort(0)
               .withJdbc(jdbc, LocalPostgres.SUPERUSER, "")
               .withIncidentsUrl("http://127.0.0.1:" + correlator.httpPort() + "/api/v1/incidents")).start()) {
        await("correlator running", Duration.ofSeconds(90), () -> correlator.streams().state() == KafkaStreams.State.RUNNING);
        // one anomaly: an incident to count, deliver and store
        Anomaly a = anomaly(System.currentTimeMillis());
        KafkaClientConfig none = KafkaClientConfig.none();
        try (Producer<String, SpecificRecord> p = io.fleetscope.loadgen.output.KafkaSink.producer(kafka.bootstrapServers(),
            none, none.registryClient(registry.url()))) {
          p.send(new ProducerRecord<>(Topics.ANOMALIES, a.getFingerprint(), a)).get(60, TimeUnit.SECONDS);
        }
        String correlatorUrl = "http://127.0.0.1:" + correlator.httpPort();
        await("the incident delivered", Duration.ofSeconds(60), () -> value(tryGet(correlatorUrl + "/metrics"),
            "fleetscope_correlator_notifications_sent_total") >= 1);
        await("the sink stored the anomaly and the incident", Duration.ofSeconds(60), () -> sink.metrics().records.get() >= 2);
        // a record that is not Avro on a topic only the sink reads: a dead letter, counted by its topic
        try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()),
            new ByteArraySerializer(), new ByteArraySerializer())) {
          raw.send(new ProducerRecord<>(Topics.ALERTS, "not-avro".getBytes(StandardCharsets.UTF_8),
              "not avro".getBytes(StandardCharsets.UTF_8))).get(60, TimeUnit.SECONDS);
        }
        await("the sink dead-lettered it", Duration.ofSeconds(60), () -> sink.metrics().rejected.get() >= 1);
        // traffic on every HTTP API, answered and refused, so that the request and error metrics have samples
        get(correlatorUrl + "/api/v1/incidents");
        get(correlatorUrl + "/api/v1/incidents/no-such-fingerprint");
        get(console.url() + "/api/health");
        get(console.url() + "/no-such-page");
        get(registry.url() + "/subjects");
        get(registry.url() + "/subjects/no-such-subject/versions");

        String correlatorText = get(correlatorUrl + "/metrics");
        // at least this test's incident (the shared topic may hold other tests' anomalies too)
        assertThat(value(correlatorText, "fleetscope_correlator_incidents_open")).as("incidents open").isGreaterThanOrEqualTo(1);
        assertThat(value(correlatorText, "fleetscope_correlator_notifications_failed_total")).isZero();
        scraped.put("correlator", ScrapedNames.of(correlatorText));
        String sinkText = get(sink.metricsUrl().orElseThrow());
        assertThat(value(sinkText, "fleetscope_sink_rows_total{table=\"anomalies\"}")).as("anomaly rows").isGreaterThanOrEqualTo(1);
        assertThat(value(sinkText, "fleetscope_sink_dead_letters_total{topic=\"" + Topics.ALERTS + "\"}")).as("dead letters")
            .isGreaterThanOrEqualTo(1);
        scraped.put("sink", ScrapedNames.of(sinkText));
        String consoleText = get(console.url() + "/metrics");
        assertThat(consoleText).contains("fleetscope_console_http_requests_total{code=\"404\",method=\"GET\",route=\"unmatched\"} 1");
        scraped.put("console", ScrapedNames.of(consoleText));
        String registryText = get(registry.url() + "/metrics");
        assertThat(value(registryText, "fleetscope_registry_subjects")).as("subjects").isGreaterThan(0);
        scraped.put("registry", ScrapedNames.of(registryText));
      }
    }
    scraped.put("agent", ScrapedNames.of(agentMetrics(kafka.bootstrapServers(), registry.url())));
    scraped.put("analytics", ScrapedNames.of(flinkMetrics()));

    scraped.forEach((c, names) -> System.out.printf("metrics scraped component=%s names=%d%n", c, names.size()));
    Map<String, Set<String>> used = dashboardNames();
    assertThat(used.keySet()).as("components the dashboards read").containsExactlyInAnyOrderElementsOf(scraped.keySet());
    List<String> missing = new ArrayList<>();
    used.forEach((component, names) -> {
      for (String n : names) {
        if (!scraped.get(component).contains(n)) {
          missing.add(component + ": " + n);
        }
      }
    });
    assertThat(missing).as("metric names the dashboards read that the components do not expose").isEmpty();
  }

  /** The metric names of every PromQL target, by the component whose prefix they carry. */
  static Map<String, Set<String>> dashboardNames() throws Exception {
    Path dir = Path.of("../../deploy/grafana/dashboards");
    Map<String, Set<String>> out = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    try (var files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        for (JsonNode panel : json.readTree(f.toFile()).path("panels")) {
          for (JsonNode t : panel.path("targets")) {
            if (!t.has("expr")) {
              continue;
            }
            for (String name : PromQlNames.of(t.path("expr").asText())) {
              String component = name.startsWith("flink_") ? "analytics"
                  : name.startsWith("fleetscope_") ? name.split("_")[1] : "unknown (" + f.getFileName() + ")";
              out.computeIfAbsent(component, k -> new TreeSet<>()).add(name);
            }
          }
        }
      }
    }
    return out;
  }

  private static Anomaly anomaly(long now) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("cluster", CL);
    labels.put("alertname", "CoolantLeak");
    labels.put("severity", "critical");
    labels.put("device", "cdu-metrics");
    return Anomaly.newBuilder().setTs(now).setFingerprint(Fingerprint.of(labels)).setStatus("firing").setLabels(labels)
        .setAnnotations(Map.of("summary", "leak under test")).setStartsAt(now).setSource("metrics-it").build();
  }

  /** Runs the agent jar as the node agent does (a GPU collector on a real nvidia-smi capture) and scrapes it once. */
  private String agentMetrics(String kafka, String registry) throws Exception {
    Path jar = Path.of("../../agents/target/fleetscope-agent.jar");
    assertThat(jar).as("the agent jar (mvn package builds it)").isRegularFile();
    Path csv = tmp.resolve("gpus.csv");
    Files.writeString(csv, ChaosAgent.gpuCsv(Path.of("../../agents/examples/captures/nvidia-smi/h200-capture.txt"), 2));
    int port = FreePorts.pick();
    Path config = tmp.resolve("agent.yaml");
    Files.writeString(config, String.join("\n",
        "cluster: " + CL,
        "node: " + CL + "-agent",
        "interval: 500ms",
        "kafka: {bootstrap: \"" + kafka + "\", registry_url: \"" + registry + "\"}",
        "spool: {dir: " + tmp.resolve("spool") + "}",
        "metrics: {port: " + port + "}",
        "nvidia_smi: {command: [cat, " + csv + "]}",
        "xid: {enabled: false}",
        "ib: {enabled: false}",
        "inventory: {enabled: false}",
        ""));
    Path log = tmp.resolve("agent.log");
    Process agent = ChildProcesses.start(List.of(JavaClasspath.javaExecutable(), "-Xmx64m", "-jar", jar.toAbsolutePath().toString(),
        "--config", config.toString()), tmp, log, false, Map.of());
    try {
      String url = "http://127.0.0.1:" + port + "/metrics";
      await("the agent sent records", Duration.ofSeconds(60), () -> {
        assertThat(agent.isAlive()).as("agent running: " + ChildProcesses.tail(log, 5)).isTrue();
        return value(tryGet(url), "fleetscope_agent_records_sent_total") > 0;
      });
      return get(url);
    } finally {
      ChildProcesses.stop(agent.toHandle(), Duration.ofSeconds(5));
    }
  }

  /**
   * The analytics' metrics as Flink's Prometheus reporter renders them: a MiniCluster job with
   * checkpoints, its PushGateway reporter (the same exposition as the scrape reporter) pushing every
   * second to a receiver on 127.0.0.1; returns the latest push once it has the job's metrics.
   */
  private static String flinkMetrics() throws Exception {
    Map<String, String> pushes = new ConcurrentHashMap<>();
    HttpServer gateway = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    gateway.createContext("/metrics/", ex -> {
      pushes.put(ex.getRequestURI().getPath(), new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      ex.sendResponseHeaders(200, -1);
      ex.close();
    });
    gateway.start();
    Configuration conf = new Configuration();
    conf.setString("metrics.reporter.prom.factory.class",
        "org.apache.flink.metrics.prometheus.PrometheusPushGatewayReporterFactory");
    conf.setString("metrics.reporter.prom.hostUrl", "http://127.0.0.1:" + gateway.getAddress().getPort());
    conf.setString("metrics.reporter.prom.jobName", "fleetscope-analytics");
    conf.setString("metrics.reporter.prom.deleteOnShutdown", "false");
    conf.setString("metrics.reporter.prom.interval", "1 s");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
    env.enableCheckpointing(300);
    env.fromSequence(0, Long.MAX_VALUE).map(new Slow()).sinkTo(new DiscardingSink<>());
    JobClient job = env.executeAsync("metrics-it");
    try {
      await("the analytics pushed job metrics", Duration.ofSeconds(60), () -> pushes.values().stream()
          .anyMatch(t -> t.contains("flink_jobmanager_job_lastCheckpointDuration") && t.contains("numRecordsInPerSecond")));
      return String.join("\n", pushes.values());
    } finally {
      job.cancel().get(30, TimeUnit.SECONDS);
      gateway.stop(0);
    }
  }

  /** A map that takes a millisecond per record, so the job runs without spinning a core. */
  static final class Slow implements MapFunction<Long, Long> {
    @Override
    public Long map(Long v) throws Exception {
      Thread.sleep(1);
      return v;
    }
  }

  private String get(String url) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    return r.body();
  }

  /** The body at {@code url}, or "" while it does not answer. */
  private String tryGet(String url) {
    try {
      return get(url);
    } catch (Exception e) {
      return "";
    }
  }

  /** The value of the sample {@code series} (a name, or a name with its labels as exposed), -1 when absent. */
  static double value(String exposition, String series) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim().split(" ")[0]);
      }
    }
    return -1;
  }

  private static void await(String what, Duration limit, BooleanSupplier done) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + limit + " waiting for " + what);
      }
      Thread.sleep(200);
    }
  }
}
