package io.fleetscope.streams;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.contract.AlertLabels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Stage 1, keyed by anomaly fingerprint: keeps every anomaly's {@link AlertState} in the
 * {@value #STORE} store and passes on only effective changes (after min firing duration and flap
 * hold-down), re-keyed by cluster for the grouping stage. A wall-clock punctuator promotes pending
 * anomalies and releases held resolutions.
 */
public final class LifecycleProcessor extends ContextualProcessor<String, Anomaly, String, Anomaly> {
  public static final String STORE = "alert-lifecycle";
  private static final Logger log = LoggerFactory.getLogger(LifecycleProcessor.class);

  private final AlertLifecycle lifecycle;
  private final Duration tick;
  private KeyValueStore<String, AlertState> store;
  /** Fingerprints with a pending promotion or held resolution and when it is due (rebuilt from the store at start). */
  private final Map<String, Long> due = new HashMap<>();

  public LifecycleProcessor(AlertLifecycle lifecycle, Duration tick) {
    this.lifecycle = lifecycle;
    this.tick = tick;
  }

  @Override
  public void init(ProcessorContext<String, Anomaly> context) {
    super.init(context);
    store = context.getStateStore(STORE);
    try (KeyValueIterator<String, AlertState> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<String, AlertState> kv = it.next();
        long d = kv.value.dueAtMs(lifecycle.minFiringMs());
        if (d > 0) {
          due.put(kv.key, d);
        }
      }
    }
    context.schedule(tick, PunctuationType.WALL_CLOCK_TIME, this::onTick);
  }

  @Override
  public void process(Record<String, Anomaly> record) {
    Anomaly a = record.value();
    String fp = a.getFingerprint();
    AlertState cur = store.get(fp);
    long now = context().currentSystemTimeMs();
    AlertLifecycle.Step step = lifecycle.onAnomaly(cur, a, record.timestamp(), now);
    apply(fp, cur, step, record.timestamp());
  }

  private void onTick(long now) {
    if (due.isEmpty()) {
      return;
    }
    List<String> ready = new ArrayList<>();
    due.forEach((fp, at) -> {
      if (at <= now) {
        ready.add(fp);
      }
    });
    for (String fp : ready) {
      AlertState cur = store.get(fp);
      if (cur == null) {
        due.remove(fp);
        continue;
      }
      apply(fp, cur, lifecycle.onTick(cur, now), now);
    }
  }

  private void apply(String fp, AlertState cur, AlertLifecycle.Step step, long ts) {
    AlertState next = step.next();
    if (next == null) {
      if (cur != null) {
        store.delete(fp);
      }
      due.remove(fp);
    } else {
      store.put(fp, next);
      long d = next.dueAtMs(lifecycle.minFiringMs());
      if (d > 0) {
        due.put(fp, d);
      } else {
        due.remove(fp);
      }
      if (cur != null && next.flaps() > cur.flaps()) {
        log.info("flap suppressed fingerprint={} alertname={} flaps={}", fp, next.labels().get(AlertLabels.ALERTNAME), next.flaps());
      }
    }
    Anomaly emit = step.emit();
    if (emit != null) {
      String cluster = emit.getLabels().get(AlertLabels.CLUSTER);
      context().forward(new Record<>(cluster, emit, ts));
    }
  }
}
