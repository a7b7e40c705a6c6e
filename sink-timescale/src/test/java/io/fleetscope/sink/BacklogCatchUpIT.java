package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.stack.services.TestServices;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A sink with a new consumer group catching up a mixed backlog of every topic from the earliest
 * offsets (rows past retention, rows old enough to be compressed, recent rows, duplicates,
 * tombstones and bad records, plus whatever earlier tests left on the shared broker) into a fresh
 * community-edition database, whose retention and compression policies start on the same chunks:
 * the group's lag keeps falling and reaches zero within a bound.
 */
class BacklogCatchUpIT {
  /** The whole backlog is stored within this; on an idle machine it takes a few seconds. */
  static final Duration CATCH_UP_BOUND = Duration.ofSeconds(90);
  /** The longest the lag may stay where it is while records are left (a stalled worker). */
  static final Duration STALL_BOUND = Duration.ofSeconds(30);
  static final int NODES = 6;
  static final int SECONDS = 30;

  static SinkTestEnv env;

  @BeforeAll
  static void setUp() {
    Assumptions.assumeTrue(TestServices.communityEditionInstalled(), TestServices.COMMUNITY_MISSING);
    env = new SinkTestEnv("sink_backlog_catch_up", true);
  }

  @AfterAll
  static void tearDown() {
    if (env != null) {
      env.close();
    }
  }

  @Test
  void aNewGroupCatchesUpAMixedBacklogWithoutStalling() throws Exception {
    Instant now = Instant.now();
    // 20 days: past raw retention (14), dropped by the policy while the sink writes it; 5 days:
    // past compression (2), compressed by the policy; 1 hour: recent
    long[] ages = {Duration.ofDays(20).toMillis(), Duration.ofDays(5).toMillis(), Duration.ofHours(1).toMillis()};
    long recentGpuRows = 0;
    for (int round = 0; round < 2; round++) { // the second round: duplicates
      for (long age : ages) {
        long t0 = now.toEpochMilli() - age;
        for (int n = 0; n < NODES; n++) {
          String node = env.cluster + "-n" + n;
          for (int s = 0; s < SECONDS; s++) {
            for (int g = 0; g < 8; g++) {
              env.send(Topics.GPU, node, SampleRecords.gpu(env.cluster, node, g, t0 + s * 1000L, s));
            }
            for (int p = 0; p < 2; p++) {
              env.send(Topics.IB, node, SampleRecords.ib(env.cluster, node, p, t0 + s * 1000L, s));
            }
          }
          for (Map.Entry<String, List<SampleRecords.Keyed>> e : SampleRecords.everyTopic(env.cluster + "-n" + n, t0).entrySet()) {
            for (SampleRecords.Keyed k : e.getValue()) {
              env.send(e.getKey(), k.key(), k.value());
            }
          }
        }
        if (round == 0 && age == ages[2]) {
          recentGpuRows = (long) NODES * (SECONDS * 8 + 1); // and everyTopic's GPU sample of each node
        }
      }
    }
    // bad records: an unknown schema id, a GPU index the table refuses, a null value on a topic
    // that is not compacted, a tombstone
    String bad = env.cluster + "-bad";
    env.sendRaw(Topics.GPU, bad, new byte[] {0, 0, 0, 0x7f, 0x7e, 1, 2});
    GpuSample impossible = SampleRecords.gpu(env.cluster, bad, 0, now.toEpochMilli(), 1);
    impossible.setGpu(-1);
    env.send(Topics.GPU, bad, impossible);
    env.sendRaw(Topics.IB, bad, null);
    env.send(Topics.INVENTORY, env.cluster + "-n0", null);
    env.flush();

    String group = "sink-backlog-catch-up-" + System.currentTimeMillis();
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.kafka.bootstrapServers()))) {
      Map<TopicPartition, Long> ends = endOffsets(admin);
      long backlog = ends.values().stream().mapToLong(Long::longValue).sum();
      SinkService sink = env.startSink(Map.of(SinkConfig.GROUP_ID.name(), group));
      try {
        long t0 = System.nanoTime();
        long lag = backlog;
        long lastLag = -1;
        long lastChange = t0;
        List<String> trace = new ArrayList<>();
        while (lag > 0) {
          long t = System.nanoTime();
          assertThat(Duration.ofNanos(t - t0)).as("catch-up of %d records; lag every second: %s", backlog, trace)
              .isLessThan(CATCH_UP_BOUND);
          lag = lag(admin, group, ends);
          trace.add(Long.toString(lag));
          if (lag != lastLag) {
            lastLag = lag;
            lastChange = t;
          }
          assertThat(Duration.ofNanos(t - lastChange)).as("the lag stayed at %d; lag every second: %s; %s", lag, trace,
              sink.metrics()).isLessThan(STALL_BOUND);
          Thread.sleep(1_000);
        }
        System.out.println("backlog caught up records=" + backlog + " s=" + Duration.ofNanos(System.nanoTime() - t0).toSeconds());
        // the database is up the whole time: a retried batch here is two workers deadlocking
        assertThat(sink.metrics().dbRetries.get()).as("batches retried; %s", sink.metrics()).isZero();
      } finally {
        sink.close();
      }
    }
    // what the policies cannot have dropped is stored once; the bad records are dead letters
    assertThat(env.count("gpu", "ts > now() - interval '1 day' AND node <> '" + bad + "'")).isEqualTo(recentGpuRows);
    assertThat(env.countWhere("dead_letters", "stage = 'sink' AND key = '" + bad + "'")).isEqualTo(3);
  }

  /** The end offset of every partition of every topic the sink reads, now. */
  private static Map<TopicPartition, Long> endOffsets(Admin admin) throws ExecutionException, InterruptedException {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    admin.describeTopics(Topics.all().keySet()).allTopicNames().get().forEach((name, d) ->
        d.partitions().forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
    Map<TopicPartition, Long> ends = new HashMap<>();
    admin.listOffsets(latest).all().get().forEach((tp, r) -> ends.put(tp, r.offset()));
    return ends;
  }

  /** Records up to {@code ends} that the group has not committed yet. */
  private static long lag(Admin admin, String group, Map<TopicPartition, Long> ends)
      throws ExecutionException, InterruptedException {
    Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    long lag = 0;
    for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
      OffsetAndMetadata c = committed.get(e.getKey());
      lag += Math.max(0, e.getValue() - (c == null ? 0 : c.offset()));
    }
    return lag;
  }
}
