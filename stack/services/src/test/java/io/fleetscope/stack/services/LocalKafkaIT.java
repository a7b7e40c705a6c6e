package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class LocalKafkaIT {
  /** Started in a JVM of its own by {@link #brokerDiesWithAKilledParent}: starts a broker, prints its pid, waits. */
  public static final class Holder {
    public static void main(String[] args) throws Exception {
      LocalKafka k = LocalKafka.start(LocalKafka.Config.defaults(java.nio.file.Path.of(args[0])));
      System.out.println("broker_pid=" + k.pid());
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  @Test
  void brokerDiesWithAKilledParent(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    Process holder = new ProcessBuilder(JavaClasspath.javaExecutable(), "-cp", JavaClasspath.current(),
        Holder.class.getName(), tmp.resolve("kafka").toString())
        .redirectError(tmp.resolve("holder.err").toFile()).start();
    long brokerPid;
    try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream()))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("broker_pid=")) {
        // the holder's own output
      }
      assertThat(line).as(ChildProcesses.tail(tmp.resolve("holder.err"), 20)).isNotNull();
      brokerPid = Long.parseLong(line.substring("broker_pid=".length()));
    }
    ProcessHandle broker = ProcessHandle.of(brokerPid).orElseThrow();
    assertThat(broker.isAlive()).isTrue();

    holder.destroyForcibly(); // SIGKILL: no shutdown hook runs in the holder
    holder.waitFor();
    broker.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(broker.isAlive()).isFalse();
  }

  private static final String TOPIC = "it.localkafka.roundtrip";

  @Test
  void producesAndConsumesInOrderPerKey() throws Exception {
    LocalKafka kafka = TestServices.kafka();
    kafka.createTopic(TOPIC, 2);

    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    pp.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, String> p = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < 100; i++) {
        p.send(new ProducerRecord<>(TOPIC, "node-" + (i % 5), Integer.toString(i))).get();
      }
    }

    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, "it-localkafka");
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<String, String>> got = new ArrayList<>();
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(cp, new StringDeserializer(), new StringDeserializer())) {
      c.subscribe(List.of(TOPIC));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (got.size() < 100 && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(500)).forEach(got::add);
      }
    }
    assertThat(got).hasSize(100);
    assertThat(got).extracting(ConsumerRecord::partition).containsOnly(0, 1).contains(0, 1);
    for (int k = 0; k < 5; k++) {
      String key = "node-" + k;
      List<Integer> values = got.stream().filter(r -> r.key().equals(key)).map(r -> Integer.parseInt(r.value())).toList();
      assertThat(values).hasSize(20).isSorted();
    }
  }

  @Test
  void aTakenPortIsRefusedBeforeStarting(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    try (java.net.ServerSocket squatter = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      LocalKafka.Config c = LocalKafka.Config.defaults(tmp).withPorts(squatter.getLocalPort(), FreePorts.pick());
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> LocalKafka.start(c))
          .hasMessage("kafka: port " + squatter.getLocalPort()
              + " on 127.0.0.1 is in use; stop what listens there or choose another port");
    }
  }

  @Test
  void compactedTopicHasCompactPolicy() throws Exception {
    LocalKafka kafka = TestServices.kafka();
    kafka.createCompactedTopic("it.localkafka.compacted", 1);
    kafka.createCompactedTopic("it.localkafka.compacted", 1); // existing: no error
    try (Admin admin = kafka.admin()) {
      ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, "it.localkafka.compacted");
      ConfigEntry e = admin.describeConfigs(List.of(r)).all().get().get(r).get("cleanup.policy");
      assertThat(e.value()).isEqualTo("compact");
      assertThat(admin.describeTopics(List.of("it.localkafka.compacted")).allTopicNames().get()
          .get("it.localkafka.compacted").partitions()).hasSize(1);
    }
  }
}
