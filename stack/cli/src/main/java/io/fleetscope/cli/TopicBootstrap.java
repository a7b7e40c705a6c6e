package io.fleetscope.cli;

import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates every FleetScope topic that does not exist yet: raw and derived topics with
 * {@code partitions} partitions and time retention, inventory and jobs compacted.
 */
final class TopicBootstrap {
  private TopicBootstrap() {}

  /** @return the topics it created */
  static List<String> ensure(String bootstrap, int partitions, long retentionMs) throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    List<String> created = new ArrayList<>();
    try (Admin admin = Admin.create(p)) {
      Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      List<NewTopic> wanted = new ArrayList<>();
      for (Topics.TopicSpec t : Topics.all().values()) {
        if (existing.contains(t.name())) {
          continue;
        }
        Map<String, String> cfg = new HashMap<>();
        if (t.compacted()) {
          cfg.put("cleanup.policy", "compact");
        } else {
          cfg.put("retention.ms", Long.toString(retentionMs));
        }
        wanted.add(new NewTopic(t.name(), partitions, (short) 1).configs(cfg));
      }
      for (NewTopic t : wanted) {
        try {
          admin.createTopics(List.of(t)).all().get(30, TimeUnit.SECONDS);
          created.add(t.name());
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
    }
    return created;
  }
}
