package io.fleetscope.schemas;

import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics that are missing, with their {@link TopicSettings} and the broker's default
 * replication factor (1 on the local stack's single broker). Idempotent: a topic that exists is left as it is,
 * even when its partitions or configs differ, and a topic another process creates at the same time
 * is taken as created. Every component that needs its topics before it starts calls this.
 */
public final class TopicBootstrap {
  private static final Logger log = LoggerFactory.getLogger(TopicBootstrap.class);
  private static final long TIMEOUT_S = 30;

  private TopicBootstrap() {}

  /** Creates every FleetScope topic ({@link Topics#settings()}) that is missing on {@code bootstrapServers}. */
  public static List<String> ensureAll(String bootstrapServers) {
    return ensure(bootstrapServers, Topics.settings());
  }

  /** As {@link #ensureAll(String)} with the client's security settings. */
  public static List<String> ensureAll(String bootstrapServers, KafkaClientConfig client) {
    return ensure(bootstrapServers, client, Topics.settings());
  }

  /**
   * Creates the topics of {@code wanted} that are missing on {@code bootstrapServers}.
   *
   * @return the names of the topics it created
   */
  public static List<String> ensure(String bootstrapServers, Collection<TopicSettings> wanted) {
    return ensure(bootstrapServers, KafkaClientConfig.none(), wanted);
  }

  /** As {@link #ensure(String, Collection)} with the client's security settings. */
  public static List<String> ensure(String bootstrapServers, KafkaClientConfig client, Collection<TopicSettings> wanted) {
    Properties p = client.applyTo(new Properties());
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(TIMEOUT_S));
    try (Admin admin = Admin.create(p)) {
      return ensure(admin, wanted);
    }
  }

  /**
   * Creates the topics of {@code wanted} that are missing, through {@code admin} (the caller closes it).
   *
   * @return the names of the topics it created
   */
  public static List<String> ensure(Admin admin, Collection<TopicSettings> wanted) {
    List<String> created = new ArrayList<>();
    for (NewTopic t : missing(existingTopics(admin), wanted)) {
      if (create(admin, t)) {
        created.add(t.name());
      }
    }
    return created;
  }

  /** The topics of {@code wanted} that are not among {@code existing}, as Kafka's Admin client takes them. */
  static List<NewTopic> missing(Set<String> existing, Collection<TopicSettings> wanted) {
    List<NewTopic> out = new ArrayList<>();
    for (TopicSettings s : wanted) {
      if (!existing.contains(s.name())) {
        out.add(new NewTopic(s.name(), Optional.of(s.partitions()), Optional.empty())
            .configs(s.configs()));
      }
    }
    return out;
  }

  private static Set<String> existingTopics(Admin admin) {
    try {
      return admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing topics", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot list topics: " + e.getCause().getMessage(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot list topics: no answer within " + TIMEOUT_S + " s", e);
    }
  }

  /** Creates one topic; false when it exists already (another process created it meanwhile). */
  private static boolean create(Admin admin, NewTopic t) {
    try {
      admin.createTopics(List.of(t)).all().get(TIMEOUT_S, TimeUnit.SECONDS);
      log.info("topic created name={} partitions={} configs={}", t.name(), t.numPartitions(), t.configs());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic " + t.name(), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TopicExistsException) {
        log.info("topic exists name={}", t.name());
        return false;
      }
      throw new IllegalStateException("cannot create topic " + t.name() + ": " + e.getCause().getMessage(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot create topic " + t.name() + ": no answer within " + TIMEOUT_S + " s", e);
    }
  }
}
