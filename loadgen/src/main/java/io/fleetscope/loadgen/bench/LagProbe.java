package io.fleetscope.loadgen.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Consumer lag per group: end offsets (listOffsets latest) minus committed offsets
 * (listConsumerGroupOffsets), summed over the group's partitions. Groups whose name starts with
 * {@code ignorePrefix} (the benchmark's own probes) are left out.
 */
public final class LagProbe {
  private final Admin admin;
  private final String ignorePrefix;

  public LagProbe(Admin admin, String ignorePrefix) {
    this.admin = admin;
    this.ignorePrefix = ignorePrefix;
  }

  /** group -> total lag in records; a group with no committed offsets yet is reported with lag -1. */
  public Map<String, Long> lagByGroup() throws Exception {
    Map<String, Long> out = new TreeMap<>();
    for (ConsumerGroupListing g : admin.listConsumerGroups().all().get(10, TimeUnit.SECONDS)) {
      String id = g.groupId();
      if (ignorePrefix != null && id.startsWith(ignorePrefix)) {
        continue;
      }
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin.listConsumerGroupOffsets(id).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
      if (committed.isEmpty()) {
        out.put(id, -1L);
        continue;
      }
      Map<TopicPartition, OffsetSpec> want = new HashMap<>();
      committed.keySet().forEach(tp -> want.put(tp, OffsetSpec.latest()));
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(want).all()
          .get(10, TimeUnit.SECONDS);
      out.put(id, lag(committed, ends));
    }
    return out;
  }

  static long lag(Map<TopicPartition, OffsetAndMetadata> committed,
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends) {
    long lag = 0;
    for (var e : committed.entrySet()) {
      var end = ends.get(e.getKey());
      if (end != null && e.getValue() != null) {
        lag += Math.max(0, end.offset() - e.getValue().offset());
      }
    }
    return lag;
  }

  /** The sum of the latest offsets of every partition of {@code topic} (records ever written to it), 0 when it does not exist. */
  public long endOffsetSum(String topic) throws Exception {
    var desc = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
    Map<TopicPartition, OffsetSpec> want = new HashMap<>();
    desc.partitions().forEach(p -> want.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
    long sum = 0;
    for (var e : admin.listOffsets(want).all().get(10, TimeUnit.SECONDS).values()) {
      sum += e.offset();
    }
    return sum;
  }
}
