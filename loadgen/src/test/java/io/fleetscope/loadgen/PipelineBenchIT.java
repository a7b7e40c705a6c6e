package io.fleetscope.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.loadgen.bench.PipelineBench;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline benchmark driver against the real broker and registry. The "pipeline" here is a
 * consumer group reading fleet.gpu.v1 (so lag is real) and a responder that answers each sample batch
 * with an anomaly whose event time is the newest sample's ts (so latency is real end-to-end).
 */
class PipelineBenchIT {
  @TempDir
  Path tmp;

  @Test
  void measuresRateLagLatencyAndProcessesAndWritesCsvAndPlot() throws Exception {
    LocalKafka kafka = TestServices.kafka();
    String registry = TestServices.registry().url();
    Files.createDirectories(tmp.resolve("state/run"));
    Files.writeString(tmp.resolve("state/run/kafka.pid"), Long.toString(kafka.pid()));
    for (var t : Topics.all().values()) {
      try {
        kafka.createTopic(t.name(), 2);
      } catch (RuntimeException alreadyThere) {
        // another test class of this JVM made it
      }
    }
    AtomicBoolean stop = new AtomicBoolean();
    Thread responder = new Thread(() -> respond(kafka.bootstrapServers(), registry, stop), "it-responder");
    responder.start();
    PipelineBench.Options o = new PipelineBench.Options(160, Duration.ofSeconds(20), Duration.ofSeconds(5),
        kafka.bootstrapServers(), registry, tmp.resolve("state"), Map.of(), tmp.resolve("out"), "healthy", 1);
    PipelineBench.Summary s;
    try {
      s = new PipelineBench(o).run();
    } finally {
      stop.set(true);
      responder.join(20_000);
    }
    // 20 nodes: 160 GPU + 160 IB samples per second, plus facility readings every 5 s
    assertThat(s.producedRpsMedian()).isBetween(300.0, 400.0);
    assertThat(s.anomalies()).isGreaterThan(5);
    assertThat(s.latencyP50Ms()).isGreaterThan(0).isLessThan(5000);
    assertThat(s.cpuPctMean()).containsKeys("kafka", "loadgen+bench");
    assertThat(s.rssMibMax().get("kafka")).isGreaterThan(100);
    List<String> csv = Files.readAllLines(tmp.resolve("out/pipeline-160.csv"));
    assertThat(csv.get(0)).contains("lag_it-pipeline").contains("cpu_pct_kafka");
    assertThat(csv).hasSizeBetween(18, 22);
    assertThat(Files.size(tmp.resolve("out/pipeline-160.png"))).isGreaterThan(5000);
    assertThat(Files.readString(tmp.resolve("out/pipeline-160-summary.md"))).contains("| 160 |");
  }

  private static void respond(String bootstrap, String registryUrl, AtomicBoolean stop) {
    RestSchemaRegistryClient reg = new RestSchemaRegistryClient(registryUrl);
    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, "it-pipeline");
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaConsumer<String, GpuSample> c = new KafkaConsumer<>(cp, new StringDeserializer(),
        new AvroDeserializer<>(reg, GpuSample.class));
        KafkaProducer<String, Anomaly> p = new KafkaProducer<>(pp, new StringSerializer(), new AvroSerializer<>(reg))) {
      c.subscribe(List.of(Topics.GPU));
      int n = 0;
      while (!stop.get()) {
        long newest = 0;
        for (var r : c.poll(Duration.ofMillis(500))) {
          newest = Math.max(newest, r.value().getTs());
        }
        c.commitSync();
        if (newest > 0) {
          String fp = "it-" + n++;
          Anomaly a = Anomaly.newBuilder().setTs(newest).setFingerprint(fp).setStatus("firing")
              .setLabels(Map.of("alertname", "GpuXid")).setAnnotations(Map.of()).setStartsAt(newest).build();
          p.send(new ProducerRecord<>(Topics.ANOMALIES, fp, a));
        }
      }
    }
  }
}
