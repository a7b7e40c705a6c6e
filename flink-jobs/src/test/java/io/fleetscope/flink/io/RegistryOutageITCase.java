package io.fleetscope.flink.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production Kafka source on a MiniCluster, with a registry that is down when the job starts:
 * the decoder waits for it instead of dead-lettering, and once it is back every record is decoded
 * (zero dead letters for the outage); a schema id the registry does not know is the only dead letter,
 * with that reason. A dead letter larger than a Kafka request is written cut to fit, saying so.
 */
class RegistryOutageITCase {
  private static final int NODES = 10;
  private static final int GPUS = 8;
  private static final int SECONDS = 5;
  private static final int UNKNOWN_ID = 987_654;

  @TempDir
  Path dir;

  @Test
  void aRegistryDownWhenTheJobStartsIsWaitedOutAndEveryRecordIsDecodedAfterwards() throws Exception {
    // a broker and registry of their own: the registry is stopped and restarted, the raw topic holds only this test's records
    try (LocalKafka kafka = LocalKafka.start(LocalKafka.Config.defaults(dir.resolve("kafka")))) {
      SchemaRegistryServer registry = SchemaRegistryServer.start(kafka.bootstrapServers(), 0);
      int port = registry.port();
      kafka.createTopic(Topics.GPU, 2);
      AvroSerializer<SpecificRecord> ser = new AvroSerializer<>(new RestSchemaRegistryClient(registry.url()));
      try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
          kafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
        for (int s = 0; s < SECONDS; s++) {
          for (int n = 0; n < NODES; n++) {
            for (int g = 0; g < GPUS; g++) {
              String node = "outage-" + n;
              p.send(new ProducerRecord<>(Topics.GPU, node, ser.serialize(Topics.GPU, Fleet.gpu(node, g, Fleet.t(s), s).build())));
            }
          }
        }
        byte[] unknown = ByteBuffer.allocate(8).put((byte) 0).putInt(UNKNOWN_ID).put(new byte[] {2, 4, 6}).array();
        p.send(new ProducerRecord<>(Topics.GPU, "unknown-id", unknown));
        p.flush();
      }
      registry.stop();

      KafkaEndpoints ep = new KafkaEndpoints(kafka.bootstrapServers(), registry.url(), "registry-outage-itcase", true);
      Configuration conf = new Configuration();
      conf.set(RestOptions.BIND_PORT, "0");
      StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
      env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
      KafkaTelemetrySource source = new KafkaTelemetrySource(ep, Runs.CLOCK, true); // up to the offsets at start
      var stream = source.open(env, Topics.require(Topics.GPU), WatermarkStrategy.noWatermarks());
      CompletableFuture<List<SpecificRecord>> job = CompletableFuture.supplyAsync(() -> {
        List<SpecificRecord> out = new ArrayList<>();
        try (CloseableIterator<SpecificRecord> it = stream.executeAndCollect("registry-outage-itcase")) {
          it.forEachRemaining(out::add);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        return out;
      });

      SchemaRegistryServer restarted = null;
      try {
        Thread.sleep(8_000); // the job starts and reads while the registry is down
        assertThat(job).as("the job waits for the registry instead of finishing").isNotDone();
        restarted = SchemaRegistryServer.start(kafka.bootstrapServers(), port);
        List<SpecificRecord> results = job.get(120, TimeUnit.SECONDS);

        List<DeadLetter> dead = results.stream().filter(r -> r instanceof DeadLetter).map(r -> (DeadLetter) r).toList();
        assertThat(dead).as("dead letters: only the unknown schema id").singleElement().satisfies(d -> {
          assertThat(d.getReason()).contains("unknown schema id " + UNKNOWN_ID + " (not in the registry: http=404 error_code=40403)");
          assertThat(d.getKey()).isEqualTo("unknown-id");
        });
        assertThat(results.stream().filter(r -> r instanceof GpuSample).count()).as("records decoded")
            .isEqualTo((long) SECONDS * NODES * GPUS);

        // a dead letter larger than a request (a 1.5 MB payload) is written by the job's Kafka encoder cut to fit
        DeadLetter huge = DeadLetters.undecodable(Topics.GPU, 1, 42L, "big", new byte[1_500_000], null,
            new IllegalArgumentException("too big to decode"), Runs.CLOCK.now());
        ProducerRecord<byte[], byte[]> encoded = new KafkaOutputSink.Encoder(restarted.url(), io.fleetscope.schemas.kafka.KafkaClientConfig.none()).serialize(huge, null, null);
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
          kafka.createTopic(Topics.DLQ, 1);
          p.send(encoded).get(30, TimeUnit.SECONDS); // the broker takes it
        }
        DeadLetter back = new AvroDeserializer<>(new RestSchemaRegistryClient(restarted.url()), DeadLetter.class)
            .deserialize(Topics.DLQ, encoded.value());
        assertThat(back.getReason()).startsWith("undecodable: too big to decode" + DeadLetterFit.TRUNCATED_MARK + "1048576 bytes: payload ")
            .endsWith(" of 1500000 bytes, payload_json 0 of 0 chars]");
        assertThat(back.getPayload().remaining()).isBetween(1_000_000, 1_048_576);
        assertThat(back.getOffset()).isEqualTo(42L);
      } finally {
        if (restarted != null) {
          restarted.close();
        }
        job.cancel(true);
      }
    }
  }
}
