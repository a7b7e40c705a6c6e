package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import io.fleetscope.schemas.contract.AlertStatus;
import io.fleetscope.schemas.metrics.KafkaClientMetrics;
import io.fleetscope.schemas.metrics.MetricNames;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The correlator's Prometheus metrics ({@code fleetscope_correlator_*}, served at {@code /metrics}
 * on its HTTP port): incidents open (read from the incidents store at scrape time), notifications
 * sent and failed, delivery lag (age of the oldest change the sink has not acknowledged yet, as of the
 * delivery processor's latest wall-clock tick), the
 * round-trip of each delivery, and Kafka Streams' own metrics
 * ({@code fleetscope_correlator_stream_thread_process_rate} and the rest, see {@link KafkaClientMetrics}).
 * One instance per correlator; thread-safe.
 */
public final class CorrelatorMetrics {
  private static final String P = MetricNames.prefix("correlator");
  private static final double[] DELIVERY_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter sent = Counter.builder().name(P + "notifications_sent_total")
      .help("Alerts acknowledged by the delivery target (new versions and periodic re-sends)").register(registry);
  private final Counter failed = Counter.builder().name(P + "notifications_failed_total")
      .help("Alerts in deliveries that failed (retried with back-off)").register(registry);
  private final Histogram deliverySeconds = Histogram.builder().name(P + "delivery_duration_seconds")
      .help("Round-trip of one delivery to the target, successful or not").classicUpperBounds(DELIVERY_BUCKETS)
      .classicOnly().register(registry);
  private final AtomicLong pending = new AtomicLong();
  /** How long the oldest unacknowledged change had waited at the delivery processor's latest tick (ms). */
  private final AtomicLong lagMs = new AtomicLong();
  private final KafkaClientMetrics kafka = new KafkaClientMetrics("correlator");

  public CorrelatorMetrics() {
    GaugeWithCallback.builder().name(P + "notifications_pending")
        .help("Incident changes not yet acknowledged by the delivery target").callback(cb -> cb.call(pending.get()))
        .register(registry);
    GaugeWithCallback.builder().name(P + "delivery_lag_seconds")
        .help("How long the oldest incident change not yet acknowledged by the delivery target has waited (0: none waits)")
        .callback(cb -> cb.call(deliveryLagSeconds())).register(registry);
    registry.register(kafka);
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  /** Adds {@code incidents_open}, read from the incidents store at each scrape (nothing while it is not queryable). */
  public void incidentsFrom(Supplier<ReadOnlyKeyValueStore<String, Alert>> store) {
    GaugeWithCallback.builder().name(P + "incidents_open").help("Firing incidents in the incidents store")
        .callback(cb -> {
          try (KeyValueIterator<String, Alert> it = store.get().all()) {
            long n = 0;
            while (it.hasNext()) {
              if (AlertStatus.isFiring(it.next().value.getStatus())) {
                n++;
              }
            }
            cb.call(n);
          } catch (InvalidStateStoreException e) {
            // starting or rebalancing: no sample rather than a wrong one
          }
        }).register(registry);
  }

  /** Adds {@code processing_failures_total}: records that made a processor throw (sent to the DLQ). */
  public void processingFailuresFrom(LongSupplier count) {
    CounterWithCallback.builder().name(P + "processing_failures_total")
        .help("Records that made a processor throw and were sent to the DLQ").callback(cb -> cb.call(count.getAsLong()))
        .register(registry);
  }

  public KafkaClientMetrics kafka() {
    return kafka;
  }

  void delivered(int alerts, long roundTripMs) {
    sent.inc(alerts);
    deliverySeconds.observe(roundTripMs / 1000.0);
  }

  void deliveryFailed(int alerts, long roundTripMs) {
    failed.inc(alerts);
    deliverySeconds.observe(roundTripMs / 1000.0);
  }

  /**
   * What the delivery processor still owes at {@code nowMs} (its wall clock, read at every tick):
   * {@code count} changes, the oldest waiting since {@code sinceMs}.
   */
  void pending(long count, long sinceMs, long nowMs) {
    pending.set(count);
    lagMs.set(count == 0 ? 0 : Math.max(0, nowMs - sinceMs));
  }

  double deliveryLagSeconds() {
    return lagMs.get() / 1000.0;
  }
}
