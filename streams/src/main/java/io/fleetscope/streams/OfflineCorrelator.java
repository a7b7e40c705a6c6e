package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RegistryWait;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The correlator's real topology run over a bounded, recorded sequence of anomalies (analyze and
 * backtest of a bundle), without Kafka: a TopologyTestDriver whose wall clock follows the anomalies'
 * event time ({@code ts}) on a grid of {@link #STEP}: the anomalies of one step go in, then the
 * clock moves to the step's end (punctuators: hold-downs, deliveries); over a stretch without
 * anomalies it jumps, stopping once a flap hold after the last step so that held resolutions are
 * released then. Page times are so within one step of when they would be live; grouping, members
 * and versions come out as they would when the anomalies arrive as detected. Re-sends of firing
 * alerts are not simulated step by step (they page nobody). What it would have sent to
 * Alertmanager is recorded: a page is the first firing notification of an incident episode
 * (fingerprint, starts_at) whose severity is {@code critical}.
 */
public final class OfflineCorrelator {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(OfflineCorrelator.class);
  /** The wall-clock step: the granularity of notification times, hold-down releases and re-sends. */
  public static final Duration STEP = Duration.ofSeconds(5);

  /** How long the wall clock runs on after the last anomaly, for the hold-downs to end (flap hold + a tick). */
  public static Duration tail(CorrelatorConfig c) {
    return c.flapHold().plus(c.tick()).plusSeconds(1);
  }

  /** One notification as Alertmanager would get it, at wall-clock {@code sentAt}. */
  public record Notification(long sentAt, String fingerprint, String status, Map<String, String> labels, long startsAt) {}

  /** The incident versions (as on fleet.alerts.v1) and the notifications, in order. */
  public record Result(List<Alert> versions, List<Notification> notifications) {
    /** First firing notifications of critical incident episodes: what would have paged someone. */
    public List<Notification> pages() {
      Set<String> seen = new LinkedHashSet<>();
      List<Notification> out = new ArrayList<>();
      for (Notification n : notifications) {
        if ("firing".equals(n.status()) && "critical".equals(n.labels().get(AlertLabels.SEVERITY))
            && seen.add(n.fingerprint() + "@" + n.startsAt())) {
          out.add(n);
        }
      }
      return out;
    }
  }

  private OfflineCorrelator() {}

  /** Runs {@code config}'s correlator over {@code inventory} (first) and {@code anomalies} (in ts order). */
  public static Result run(CorrelatorConfig config, List<InventoryRecord> inventory, List<Anomaly> anomalies) {
    List<Anomaly> sorted = new ArrayList<>(anomalies);
    // in ts order; of anomalies with the same ts, causes (cooling, power) first: the analytics emit a
    // cause and the GPU alerts it explains from different stages, whose order live is not that of the
    // bundle's file, so the GPU alerts join the cause's incident as they would whichever came first
    Set<String> causes = config.causeAlertnames();
    sorted.sort(Comparator.comparingLong(Anomaly::getTs)
        .thenComparing(a -> !causes.contains(a.getLabels().get(AlertLabels.ALERTNAME))));
    long started = System.nanoTime();
    long t0 = sorted.isEmpty() ? 0L : sorted.get(0).getTs();
    for (InventoryRecord r : inventory) {
      t0 = Math.min(t0, r.getTs());
    }
    Path stateDir;
    try {
      stateDir = Files.createTempDirectory("fleetscope-offline-correlator");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a state directory: " + e.getMessage(), e);
    }
    InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
    Collecting sink = new Collecting();
    sink.wall.set(t0);
    Properties p = CorrelatorApp.streamsConfig(config);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    try (TopologyTestDriver driver = new TopologyTestDriver(CorrelatorApp.buildTopology(config, registry, sink,
        new RegistryWait(config.registryBackoff()), new CorrelatorMetrics()), p, Instant.ofEpochMilli(t0))) {
      TestInputTopic<String, InventoryRecord> inv = driver.createInputTopic(config.inventoryTopic(), new StringSerializer(),
          new AvroSerializer<>(registry));
      TestInputTopic<String, Anomaly> in = driver.createInputTopic(config.anomaliesTopic(), new StringSerializer(),
          new AvroSerializer<>(registry));
      TestOutputTopic<String, Alert> out = driver.createOutputTopic(config.alertsTopic(), new StringDeserializer(),
          new AvroDeserializer<>(registry, Alert.class));
      for (InventoryRecord r : inventory) {
        inv.pipeInput(r.getId(), r, Instant.ofEpochMilli(r.getTs()));
      }
      long step = STEP.toMillis();
      long now = t0;
      int i = 0;
      while (i < sorted.size()) {
        // every anomaly up to the next step boundary, then the clock moves to that boundary (punctuators, deliveries)
        long boundary = Math.max(now, sorted.get(i).getTs() - Math.floorMod(sorted.get(i).getTs() - t0, step)) + step;
        now = jumpTo(driver, now, boundary - step, config.flapHold().toMillis() + step, sink);
        while (i < sorted.size() && sorted.get(i).getTs() < boundary) {
          Anomaly a = sorted.get(i++);
          in.pipeInput(a.getFingerprint(), a, Instant.ofEpochMilli(a.getTs()));
        }
        now = advanceTo(driver, now, boundary, step, sink);
      }
      advanceTo(driver, now, now + tail(config).toMillis(), Long.MAX_VALUE, sink);
      List<Alert> versions = new ArrayList<>(out.readValuesToList());
      log.info("offline correlator anomalies={} versions={} notifications={} steps={} ms={}", sorted.size(), versions.size(),
          sink.sent.size(), sink.steps, (System.nanoTime() - started) / 1_000_000);
      return new Result(versions, List.copyOf(sink.sent));
    } finally {
      try (var w = Files.walk(stateDir)) {
        w.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (IOException e) {
        // a temporary directory left behind is harmless
      }
    }
  }

  /**
   * Moves the clock over a stretch without anomalies: in one move, or in two when it is longer than
   * {@code release} (the flap hold and a step), so that held resolutions are released about when they would be live.
   */
  private static long jumpTo(TopologyTestDriver driver, long now, long target, long release, Collecting sink) {
    if (target - now > release) {
      now = advanceTo(driver, now, now + release, Long.MAX_VALUE, sink);
    }
    return advanceTo(driver, now, target, Long.MAX_VALUE, sink);
  }

  private static long advanceTo(TopologyTestDriver driver, long now, long target, long maxStep, Collecting sink) {
    while (now < target) {
      long step = Math.min(maxStep, target - now);
      now += step;
      sink.wall.set(now);
      sink.steps++;
      driver.advanceWallClockTime(Duration.ofMillis(step));
    }
    return now;
  }

  /** Records every alert sent; deliveries always succeed. */
  private static final class Collecting implements AlertSink {
    final List<Notification> sent = new ArrayList<>();
    long steps;
    final java.util.concurrent.atomic.AtomicLong wall = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public synchronized CompletableFuture<Void> send(List<OutboundAlert> alerts) {
      long at = wall.get();
      for (OutboundAlert a : alerts) {
        sent.add(new Notification(at, a.fingerprint(), a.status(), Map.copyOf(a.labels()), a.startsAt().toEpochMilli()));
      }
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public String describe() {
      return "offline";
    }
  }
}
