package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 3: delivers incidents to an {@link AlertSink} (Alertmanager, webhook). New versions go out
 * at once; firing incidents are re-sent every resend interval with {@code endsAt = now + validity},
 * so Alertmanager keeps them active (and gets them back after a restart) but expires them if the
 * correlator dies; resolutions go out with their {@code endsAt}. Failed sends are retried with
 * exponential back-off. Pending work lives in the {@value #STORE} store (changelogged) and is only
 * removed once acknowledged, so a restart re-derives it. Like Prometheus, an acknowledged resolution
 * is re-sent for a while (correlator.resolved_resend_seconds): an older firing update that Alertmanager
 * processes late (e.g. a request that timed out while it hung) cannot leave the alert active. HTTP runs asynchronously; its outcome is
 * applied on the stream thread by the wall-clock punctuator.
 */
public final class DeliveryProcessor extends ContextualProcessor<String, Alert, Void, Void> {
  public static final String STORE = "deliveries";
  private static final Logger log = LoggerFactory.getLogger(DeliveryProcessor.class);

  private record Outcome(Map<String, Long> sent, long sentAtMs, Throwable error, int newOrResolved) {}

  private final AlertSink sink;
  private final CorrelatorConfig config;
  private final CorrelatorMetrics metrics;
  /** Wall-clock ms since which each unacknowledged change waits (not stored: after a restart, since the restore). */
  private final Map<String, Long> pendingSince = new HashMap<>();
  private final Queue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
  private final Map<String, DeliveryState> states = new HashMap<>();
  private KeyValueStore<String, DeliveryState> store;
  private boolean inFlight;
  private int failures;
  private long nextAttemptMs;

  public DeliveryProcessor(AlertSink sink, CorrelatorConfig config) {
    this(sink, config, new CorrelatorMetrics());
  }

  public DeliveryProcessor(AlertSink sink, CorrelatorConfig config, CorrelatorMetrics metrics) {
    this.sink = sink;
    this.config = config;
    this.metrics = metrics;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    super.init(context);
    store = context.getStateStore(STORE);
    try (KeyValueIterator<String, DeliveryState> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<String, DeliveryState> kv = it.next();
        states.put(kv.key, kv.value);
        if (!kv.value.acknowledged()) {
          pendingSince.put(kv.key, context.currentSystemTimeMs());
        }
      }
    }
    publishPending(context.currentSystemTimeMs());
    if (!states.isEmpty()) {
      log.info("deliveries restored pending={} sink={}", states.size(), sink.describe());
    }
    context.schedule(config.tick(), PunctuationType.WALL_CLOCK_TIME, this::onTick);
  }

  @Override
  public void process(Record<String, Alert> record) {
    Alert a = record.value();
    DeliveryState next = DeliveryState.of(a, states.get(a.getFingerprint()));
    states.put(a.getFingerprint(), next);
    store.put(a.getFingerprint(), next);
    if (!next.acknowledged()) {
      pendingSince.putIfAbsent(a.getFingerprint(), context().currentSystemTimeMs());
    }
    flush(context().currentSystemTimeMs());
  }

  private void onTick(long now) {
    flush(now);
  }

  private void drain(long now) {
    Outcome o;
    while ((o = outcomes.poll()) != null) {
      inFlight = false;
      if (o.error() == null) {
        metrics.delivered(o.sent().size(), now - o.sentAtMs());
        failures = 0;
        nextAttemptMs = 0;
        int resolutions = 0;
        long window = config.resolvedResend().toMillis();
        for (Map.Entry<String, Long> e : o.sent().entrySet()) {
          DeliveryState s = states.get(e.getKey());
          if (s == null) {
            continue;
          }
          DeliveryState acked = s.acknowledged(e.getValue(), o.sentAtMs());
          if (s.resolvedAckMs() == 0 && acked.resolvedAckMs() > 0) {
            resolutions++;
          }
          if (acked.acknowledged()) {
            pendingSince.remove(e.getKey());
          }
          if (acked.done(now, window)) {
            states.remove(e.getKey());
            store.delete(e.getKey());
          } else {
            states.put(e.getKey(), acked);
            store.put(e.getKey(), acked);
          }
        }
        if (o.newOrResolved() > 0) {
          log.info("alerts delivered sink={} alerts={} changes={} resolutions={} ms={}", sink.describe(), o.sent().size(),
              o.newOrResolved(), resolutions, now - o.sentAtMs());
        } else {
          log.debug("alerts re-sent sink={} alerts={} ms={}", sink.describe(), o.sent().size(), now - o.sentAtMs());
        }
      } else {
        metrics.deliveryFailed(o.sent().size(), now - o.sentAtMs());
        failures++;
        long backoff = backoffMs(failures);
        nextAttemptMs = now + backoff;
        Throwable cause = o.error().getCause() != null && o.error() instanceof java.util.concurrent.CompletionException
            ? o.error().getCause() : o.error();
        log.warn("delivery failed sink={} alerts={} attempt={} retry_in_ms={} reason=\"{}\"", sink.describe(),
            o.sent().size(), failures, backoff, cause.getClass().getSimpleName() + ": " + cause.getMessage());
      }
    }
  }

  long backoffMs(int failureCount) {
    long initial = config.retryInitial().toMillis();
    long max = config.retryMax().toMillis();
    long b = initial << Math.min(failureCount - 1, 30);
    return b <= 0 || b > max ? max : b;
  }

  private void publishPending(long now) {
    long oldest = 0;
    for (long since : pendingSince.values()) {
      oldest = oldest == 0 ? since : Math.min(oldest, since);
    }
    metrics.pending(pendingSince.size(), oldest, now);
  }

  private void flush(long now) {
    drain(now);
    publishPending(now);
    if (inFlight || now < nextAttemptMs) {
      return;
    }
    long resendMs = config.resendInterval().toMillis();
    long window = config.resolvedResend().toMillis();
    List<String> finished = new ArrayList<>();
    List<DeliveryState> due = new ArrayList<>();
    for (DeliveryState s : states.values()) {
      if (s.done(now, window)) {
        finished.add(s.fingerprint());
        continue;
      }
      if (s.due(now, resendMs)) {
        due.add(s);
      }
    }
    for (String fp : finished) {
      pendingSince.remove(fp);
      states.remove(fp);
      store.delete(fp);
    }
    if (due.isEmpty()) {
      return;
    }
    // unacknowledged changes first (resolutions before re-sends), then by fingerprint for a stable order
    due.sort(Comparator.comparing((DeliveryState s) -> s.deliveredVersion() >= s.version())
        .thenComparing(DeliveryState::fingerprint));
    if (due.size() > config.batchMax()) {
      due = due.subList(0, config.batchMax());
    }
    Map<String, Long> sent = new LinkedHashMap<>();
    List<OutboundAlert> batch = new ArrayList<>(due.size());
    int changes = 0;
    Instant validUntil = Instant.ofEpochMilli(now).plus(config.validity());
    for (DeliveryState s : due) {
      sent.put(s.fingerprint(), s.version());
      if (s.deliveredVersion() < s.version()) {
        changes++;
      }
      // a resolution must end in the past (clock skew between detector and here): Alertmanager treats an alert
      // whose endsAt is still ahead as firing, and never lets such an update shorten a firing alert's endsAt
      Instant ends = s.firing() ? validUntil
          : Instant.ofEpochMilli(s.endsAtMs() == null ? now : Math.min(s.endsAtMs(), now));
      batch.add(new OutboundAlert(s.fingerprint(), s.status(), s.labels(), s.annotations(),
          Instant.ofEpochMilli(s.startsAtMs()), ends, config.generatorBase() + s.fingerprint()));
    }
    inFlight = true;
    final int changeCount = changes;
    CompletableFuture<Void> f;
    try {
      f = sink.send(batch);
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    f.whenComplete((v, e) -> outcomes.add(new Outcome(sent, now, e, changeCount)));
  }

}
