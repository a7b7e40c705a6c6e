package io.fleetscope.agent.publish;

import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the producer when it can. At boot a node's DNS may not be ready: the producer's
 * constructor then fails ("No resolvable bootstrap urls"). Instead of dying, the sender asks this
 * connector on each attempt (with its capped back-off); the agent meanwhile collects into the spool.
 * One line says what it waits for, one line says when it connected.
 */
public final class KafkaConnector {
  private static final Logger log = LoggerFactory.getLogger(KafkaConnector.class);

  private final String bootstrap;
  private final Supplier<Producer<String, byte[]>> factory;
  private final BootstrapHosts.Resolver resolver;
  private long waitingSince = -1;
  private String lastReason = "";

  public KafkaConnector(String bootstrap, Supplier<Producer<String, byte[]>> factory, BootstrapHosts.Resolver resolver) {
    this.bootstrap = bootstrap;
    this.factory = factory;
    this.resolver = resolver;
  }

  /** One attempt: the producer, or null (logged once per distinct reason) when it cannot be built yet. */
  public Producer<String, byte[]> tryConnect() {
    List<String> unresolved = BootstrapHosts.unresolved(bootstrap, resolver);
    String reason;
    if (unresolved.size() == bootstrap.split(",").length) {
      reason = "unresolved=" + String.join(",", unresolved);
    } else {
      try {
        Producer<String, byte[]> p = factory.get();
        if (waitingSince >= 0) {
          log.info("kafka producer created bootstrap={} waited_ms={}", bootstrap, System.currentTimeMillis() - waitingSince);
        }
        waitingSince = -1;
        return p;
      } catch (KafkaException e) {
        Throwable root = e;
        while (root.getCause() != null) root = root.getCause();
        reason = "error=" + String.valueOf(root.getMessage()).replace('\n', ' ');
      }
    }
    if (waitingSince < 0) waitingSince = System.currentTimeMillis();
    if (!reason.equals(lastReason)) {
      log.warn("kafka not reachable at start, spooling and retrying bootstrap={} {}", bootstrap, reason);
      lastReason = reason;
    }
    return null;
  }
}
