package io.fleetscope.sink.service;

import io.fleetscope.schemas.metrics.KafkaClientMetrics;
import io.fleetscope.schemas.metrics.MetricNames;
import io.fleetscope.sink.write.WritePaths;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of the sink, shared by its workers (for progress lines and tests), and the same as
 * Prometheus metrics in {@link #registry()} ({@code fleetscope_sink_*}, served at {@code /metrics}):
 * rows stored per table, dead letters per source topic, batch latency, database retries, and each
 * consumer's own Kafka metrics (its lag: {@code fleetscope_sink_consumer_fetch_manager_records_lag_max}).
 */
public final class SinkMetrics {
  private static final String P = MetricNames.prefix("sink");
  private static final double[] BATCH_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
  public final AtomicLong records = new AtomicLong();
  public final AtomicLong inserted = new AtomicLong();
  public final AtomicLong rejected = new AtomicLong();
  /** Dead letters cut to fit the DLQ producer's max.request.size (the dead_letters table keeps them whole). */
  public final AtomicLong deadLettersTruncated = new AtomicLong();
  public final AtomicLong batches = new AtomicLong();
  public final AtomicLong dbRetries = new AtomicLong();
  public final AtomicLong committedBatches = new AtomicLong();
  /** Batches held (offsets not committed) because their dead letters could not be published. */
  public final AtomicLong dlqRetries = new AtomicLong();
  /** Batches retried after an unexpected error (a defect: the worker logs it and goes on). */
  public final AtomicLong workerErrors = new AtomicLong();
  /** System.nanoTime() of the first non-empty poll (0 until then) and of the latest offset commit. */
  public final AtomicLong firstPollNanos = new AtomicLong();
  public final AtomicLong lastCommitNanos = new AtomicLong();
  /**
   * Where the workers' time went, summed over workers (ns): waiting in poll for records, decoding,
   * writing to the database (COPY and INSERTs), the database commit, and the offset commit.
   */
  public final AtomicLong pollNanos = new AtomicLong();
  public final AtomicLong decodeNanos = new AtomicLong();
  public final AtomicLong writeNanos = new AtomicLong();
  public final AtomicLong dbCommitNanos = new AtomicLong();
  public final AtomicLong offsetCommitNanos = new AtomicLong();
  /** Which write path the batches took (direct COPY, staging, fallbacks from direct to staging). */
  public final WritePaths paths = new WritePaths();

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter rows = Counter.builder().name(P + "rows_total")
      .help("Rows stored (inserted or updated), by table").labelNames("table").register(registry);
  private final Counter deadLetters = Counter.builder().name(P + "dead_letters_total")
      .help("Records rejected into dead_letters (and the DLQ topic), by the topic they came from")
      .labelNames("topic").register(registry);
  private final Histogram batchSeconds = Histogram.builder().name(P + "batch_duration_seconds")
      .help("Time to decode, write and commit one polled batch (including the DLQ publish and the offset commit)")
      .classicUpperBounds(BATCH_BUCKETS).classicOnly().register(registry);
  private final KafkaClientMetrics kafka = new KafkaClientMetrics("sink");

  public SinkMetrics() {
    CounterWithCallback.builder().name(P + "records_total").help("Records consumed and stored or dead-lettered")
        .callback(cb -> cb.call(records.get())).register(registry);
    CounterWithCallback.builder().name(P + "batches_total").help("Batches committed")
        .callback(cb -> cb.call(batches.get())).register(registry);
    CounterWithCallback.builder().name(P + "db_retries_total")
        .help("Batches retried because the database or the registry could not be reached")
        .callback(cb -> cb.call(dbRetries.get())).register(registry);
    CounterWithCallback.builder().name(P + "dlq_retries_total")
        .help("Batches whose dead letters the broker did not take in time: offsets held, publish retried")
        .callback(cb -> cb.call(dlqRetries.get())).register(registry);
    CounterWithCallback.builder().name(P + "worker_errors_total")
        .help("Batches retried after an unexpected error in a worker (offsets not committed)")
        .callback(cb -> cb.call(workerErrors.get())).register(registry);
    GaugeWithCallback.builder().name(P + "last_commit_age_seconds")
        .help("Seconds since the latest offset commit (NaN before the first)")
        .callback(cb -> {
          long t = lastCommitNanos.get();
          cb.call(t == 0 ? Double.NaN : (System.nanoTime() - t) / 1e9);
        }).register(registry);
    registry.register(kafka);
  }

  /** The Prometheus metrics of this sink. */
  public PrometheusRegistry registry() {
    return registry;
  }

  /** Where each worker's consumer adds its own metrics (lag, fetch rate). */
  public KafkaClientMetrics kafka() {
    return kafka;
  }

  /** {@code n} rows of {@code table} committed. */
  public void rowsStored(String table, long n) {
    if (n > 0) {
      rows.labelValues(table).inc(n);
    }
  }

  /** A record of {@code topic} rejected into dead_letters. */
  public void deadLettered(String topic) {
    deadLetters.labelValues(topic).inc();
  }

  /** One batch took {@code nanos} from decoding to the offset commit. */
  public void batchDone(long nanos) {
    batchSeconds.observe(nanos / 1e9);
  }

  @Override
  public String toString() {
    return "records=" + records + " inserted=" + inserted + " rejected=" + rejected + " dead_letters_truncated=" + deadLettersTruncated + " batches=" + batches
        + " db_retries=" + dbRetries + " dlq_retries=" + dlqRetries + " worker_errors=" + workerErrors + " " + paths + " poll_ms=" + pollNanos.get() / 1_000_000 + " decode_ms="
        + decodeNanos.get() / 1_000_000 + " write_ms=" + writeNanos.get() / 1_000_000 + " db_commit_ms="
        + dbCommitNanos.get() / 1_000_000 + " offset_commit_ms=" + offsetCommitNanos.get() / 1_000_000;
  }
}
