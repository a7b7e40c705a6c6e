package io.fleetscope.streams;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates the correlator's input and output topics when they are missing (Kafka Streams refuses missing sources). */
final class TopicBootstrap {
  private static final Logger log = LoggerFactory.getLogger(TopicBootstrap.class);
  static final int PARTITIONS = 3;

  private TopicBootstrap() {}

  static void ensure(CorrelatorConfig c) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, c.kafka());
    try (Admin admin = Admin.create(p)) {
      Set<String> have = admin.listTopics().names().get();
      List<NewTopic> missing = new ArrayList<>();
      for (String t : List.of(c.anomaliesTopic(), c.inventoryTopic(), c.alertsTopic(), c.dlqTopic())) {
        if (!have.contains(t)) {
          NewTopic nt = new NewTopic(t, java.util.Optional.of(PARTITIONS), java.util.Optional.empty());
          if (t.equals(c.inventoryTopic())) {
            nt.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
          }
          missing.add(nt);
        }
      }
      if (missing.isEmpty()) {
        return;
      }
      for (NewTopic nt : missing) {
        try {
          admin.createTopics(List.of(nt)).all().get();
          log.info("topic created name={} partitions={}", nt.name(), PARTITIONS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("cannot create topic " + nt.name() + ": " + e.getCause().getMessage(), e);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking topics", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot list topics on " + c.kafka() + ": " + e.getCause().getMessage(), e);
    }
  }
}
