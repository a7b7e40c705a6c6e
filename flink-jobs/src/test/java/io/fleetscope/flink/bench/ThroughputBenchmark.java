package io.fleetscope.flink.bench;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.AnalyticCatalog;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.KafkaEndpoints;
import io.fleetscope.flink.io.KafkaTelemetrySource;
import io.fleetscope.flink.io.TelemetrySource;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import io.fleetscope.stack.services.TestServices;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Raw records/s with every analytic on (not a test). {@code memory}: records generated in the
 * source, no Kafka; {@code kafka}: records produced once to a local broker with the project's
 * AvroSerializer, then read by KafkaSource through the real AvroDeserializer (bounded at the latest
 * offsets). Args: mode records runs parallelism. Prints one line per run and the median; with
 * {@code -Dbench.ab=PROPERTY} the runs alternate PROPERTY=true/false and the median of each arm is
 * printed too.
 */
public final class ThroughputBenchmark {
  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "memory";
    long records = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000L;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    int parallelism = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    long half = records / 2;
    FleetGenerator gen = new FleetGenerator(250).perTopic(half);
    TelemetrySource source;
    if (mode.equals("kafka")) {
      LocalKafka kafka = TestServices.kafka();
      SchemaRegistryServer registry = TestServices.registry();
      String suffix = "";
      for (String t : FleetAnalytics.RAW_TOPICS) {
        kafka.createTopic(t, 2);
      }
      produce(kafka.bootstrapServers(), registry.url(), gen, half);
      source = new KafkaTelemetrySource(new KafkaEndpoints(kafka.bootstrapServers(), registry.url(), "bench" + suffix, true),
          WallClock.system(), true);
    } else {
      source = new GeneratedSource(gen, half);
    }
    List<Double> rates = new ArrayList<>();
    List<Double> wall = new ArrayList<>();
    // -Dbench.ab=PROPERTY: runs alternate PROPERTY=true (even runs) and false (odd), one JVM, so a
    // drift over the runs (JIT, heap sizing, the broker's caches) falls on both arms alike
    String ab = System.getProperty("bench.ab");
    java.util.Map<Boolean, List<Double>> arms = new java.util.TreeMap<>();
    for (int r = 0; r < runs; r++) {
      if (ab != null) {
        System.setProperty(ab, Boolean.toString(r % 2 == 0));
      }
      if (source instanceof KafkaTelemetrySource) {
        LocalKafka kafka = TestServices.kafka();
        source = new KafkaTelemetrySource(new KafkaEndpoints(kafka.bootstrapServers(), TestServices.registry().url(),
            "bench-" + r + "-" + System.nanoTime(), true), WallClock.system(), true);
      }
      Configuration conf = new Configuration();
      conf.set(RestOptions.BIND_PORT, "0");
      StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
      env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
      // -Dbench.config=FILE: an analytics config overriding some defaults (as `run --config`)
      String cfgFile = System.getProperty("bench.config");
      AnalyticsConfig cfg = cfgFile == null ? AnalyticsConfig.defaults() : AnalyticsConfig.load(java.nio.file.Path.of(cfgFile));
      String only = System.getProperty("bench.jobs");
      List<Analytic> analytics = only == null ? AnalyticCatalog.all()
          : only.equals("none") ? List.of() // baseline: source, decode, validation, watermarks only
          : AnalyticCatalog.select(List.of(only.split(",")));
      OUTPUTS.reset();
      DEAD_LETTERS.reset();
      new FleetAnalytics(source, out -> out.filter(ThroughputBenchmark::countOnly).name("count").sinkTo(new DiscardingSink<>())
          .name("discard"), cfg, analytics, WallClock.fixed(io.fleetscope.flink.testing.Fleet.t(86_400 * 30))).build(env);
      long t0 = System.nanoTime();
      long cpu0 = cpuNanos();
      env.execute("bench-" + mode);
      double s = (System.nanoTime() - t0) / 1e9;
      double cpuS = (cpuNanos() - cpu0) / 1e9;
      double rate = 2 * half / s;
      double perCpuSecond = 2 * half / cpuS;
      rates.add(perCpuSecond);
      wall.add(rate);
      if (ab != null) {
        arms.computeIfAbsent(r % 2 == 0, k -> new ArrayList<>()).add(perCpuSecond);
        System.out.printf("bench ab %s=%s%n", ab, r % 2 == 0);
      }
      System.out.printf("bench mode=%s run=%d records=%d jobs=%s wall_s=%.2f cpu_s=%.2f records_per_wall_s=%.0f records_per_cpu_s=%.0f"
          + " outputs=%d dead_letters=%d%n", mode, r, 2 * half, analytics.stream().map(Analytic::name).toList(), s, cpuS, rate,
          perCpuSecond, OUTPUTS.sum(), DEAD_LETTERS.sum());
    }
    rates.sort(null);
    wall.sort(null);
    for (var arm : arms.entrySet()) {
      List<Double> l = new ArrayList<>(arm.getValue());
      l.sort(null);
      System.out.printf("bench ab %s=%s runs=%d median_records_per_cpu_s=%.0f runs_records_per_cpu_s=%s%n", ab, arm.getKey(), l.size(),
          l.get(l.size() / 2), arm.getValue().stream().map(v -> String.format("%.0f", v)).toList());
    }
    System.out.printf("bench mode=%s runs=%d median_records_per_cpu_s=%.0f median_records_per_wall_s=%.0f%n", mode, runs,
        rates.get(rates.size() / 2), wall.get(wall.size() / 2));
    System.exit(0);
  }

  /** Outputs and dead letters (late or rejected records) of the current run: the MiniCluster runs in this JVM. */
  private static final java.util.concurrent.atomic.LongAdder OUTPUTS = new java.util.concurrent.atomic.LongAdder();
  private static final java.util.concurrent.atomic.LongAdder DEAD_LETTERS = new java.util.concurrent.atomic.LongAdder();

  /** Counts an output record and drops it (a benchmark whose input turns late shows it here). */
  private static boolean countOnly(SpecificRecord r) {
    OUTPUTS.increment();
    if (r instanceof DeadLetter) {
      DEAD_LETTERS.increment();
    }
    return false;
  }

  /** CPU time of this JVM (all threads: Flink's tasks, network, timers, GC), ns. */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void produce(String bootstrap, String registryUrl, FleetGenerator gen, long perTopic) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    AvroSerializer<SpecificRecord> ser = new AvroSerializer<>(new RestSchemaRegistryClient(registryUrl));
    long t0 = System.nanoTime();
    try (KafkaProducer<String, byte[]> prod = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      // each half of the index range is one half of the nodes in time order: it goes to its own
      // partition, so every partition is in time order (hashing the node key would put both halves,
      // each starting again at second 0, into one partition, and the second half would all be late)
      long halfOfTopic = Math.max(1, perTopic / 2);
      for (long i = 0; i < perTopic; i++) {
        SpecificRecord g = gen.gpu(i);
        SpecificRecord b = gen.ib(i);
        String key = ((io.fleetscope.avro.GpuSample) g).getNode();
        int partition = (int) Math.min(1, i / halfOfTopic);
        prod.send(new ProducerRecord<>(Topics.GPU, partition, key, ser.serialize(Topics.GPU, g)));
        prod.send(new ProducerRecord<>(Topics.IB, partition, key, ser.serialize(Topics.IB, b)));
      }
      prod.flush();
    }
    System.out.printf("bench produced records=%d seconds=%.1f%n", 2 * perTopic, (System.nanoTime() - t0) / 1e9);
  }

  /** Records generated inside the source (no Kafka, no deserialization). */
  static final class GeneratedSource implements TelemetrySource {
    private final FleetGenerator gen;
    private final long perTopic;

    GeneratedSource(FleetGenerator gen, long perTopic) {
      this.gen = gen;
      this.perTopic = perTopic;
    }

    @Override
    public DataStream<SpecificRecord> open(StreamExecutionEnvironment env, Topics.TopicSpec topic,
        org.apache.flink.api.common.eventtime.WatermarkStrategy<SpecificRecord> watermarks) {
      FleetGenerator g = gen;
      AvroTypeInfo<SpecificRecord> type = AvroTypeInfo.anyOf(topic.valueClass(), DeadLetter.class);
      DataStream<SpecificRecord> s;
      if (topic.name().equals(Topics.GPU)) {
        s = env.fromSequence(0, perTopic - 1).map(g::gpu).returns(type).name("gen-gpu");
      } else if (topic.name().equals(Topics.IB)) {
        s = env.fromSequence(0, perTopic - 1).map(g::ib).returns(type).name("gen-ib");
      } else {
        s = env.fromSequence(0, 0).filter(i -> false).map(i -> (SpecificRecord) null).returns(type).name("gen-none-" + topic.name());
      }
      return s.assignTimestampsAndWatermarks(watermarks);
    }

    /** The fast path's reader: the same generated records again. */
    @Override
    public DataStream<SpecificRecord> openReader(StreamExecutionEnvironment env, Topics.TopicSpec topic,
        org.apache.flink.api.common.eventtime.WatermarkStrategy<SpecificRecord> watermarks, String reader) {
      return open(env, topic, watermarks);
    }

    @Override
    public boolean bounded() {
      return true;
    }
  }
}
