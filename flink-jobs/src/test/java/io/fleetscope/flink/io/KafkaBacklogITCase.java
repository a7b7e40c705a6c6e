package io.fleetscope.flink.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.EccTrend;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.FleetAnalytics;
import io.fleetscope.flink.ecc.EccTrendAnalytic;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.TestServices;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog read by one reader from three partitions: the consumer hands over a fetch of one
 * partition after another (about a megabyte each, here tens of seconds of event time), so the
 * partitions are read tens of seconds apart. Every record is in order within its partition, so none
 * may be late: the watermark has to be the minimum over the partitions, not the newest record of
 * whichever partition was read first (which dead-lettered most of this backlog as late before).
 */
class KafkaBacklogITCase {
  private static final int SECONDS = 600;
  private static final int NODES_PER_PARTITION = 40;
  private static final int GPUS = 4;

  @TempDir
  Path dir;

  @Test
  void aBacklogReadPartitionByPartitionMakesNoRecordLate() throws Exception {
    // a broker of its own: the raw topics of the shared one hold other tests' records
    try (LocalKafka kafka = LocalKafka.start(LocalKafka.Config.defaults(dir.resolve("kafka")))) {
      run(kafka, TestServices.registry().url());
    }
  }

  private void run(LocalKafka kafka, String registry) throws Exception {
    for (String t : FleetAnalytics.RAW_TOPICS) {
      kafka.createTopic(t, 3);
    }
    AvroSerializer<SpecificRecord> ser = new AvroSerializer<>(new RestSchemaRegistryClient(registry));
    try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new StringSerializer(), new ByteArraySerializer())) {
      for (int partition = 0; partition < 3; partition++) {
        for (int s = 0; s < SECONDS; s++) {
          for (int n = 0; n < NODES_PER_PARTITION; n++) {
            for (int g = 0; g < GPUS; g++) {
              gpuSample(p, ser, partition, "backlog-" + partition + "-" + n, g, s);
            }
          }
        }
      }
      p.flush();
    }
    KafkaEndpoints ep = new KafkaEndpoints(kafka.bootstrapServers(), registry, "kafka-backlog-itcase", true);
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf); // one reader, three splits
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    CollectedOutput out = new CollectedOutput();
    new FleetAnalytics(new KafkaTelemetrySource(ep, Runs.CLOCK, true), out, AnalyticsConfig.defaults(), List.of(new EccTrendAnalytic()),
        Runs.CLOCK).build(env);
    List<SpecificRecord> results = out.run(env, "kafka-backlog-itcase");

    List<String> late = results.stream().filter(r -> r instanceof DeadLetter).map(r -> ((DeadLetter) r).getReason())
        .filter(r -> r.startsWith("late")).toList();
    assertThat(late).as("dead-lettered as late").isEmpty();
    // every GPU got its ECC trend for every minute of the backlog
    assertThat(results.stream().filter(r -> r instanceof EccTrend).count()).isEqualTo(3L * NODES_PER_PARTITION * GPUS * SECONDS / 60);
  }

  private static void gpuSample(KafkaProducer<String, byte[]> p, AvroSerializer<SpecificRecord> ser, int partition, String node,
      int gpu, int s) {
    SpecificRecord r = Fleet.gpu(node, gpu, Fleet.t(s), s).build();
    p.send(new ProducerRecord<>(Topics.GPU, partition, node, ser.serialize(Topics.GPU, r)));
  }
}
