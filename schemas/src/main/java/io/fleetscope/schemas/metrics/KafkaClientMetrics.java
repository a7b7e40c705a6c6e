package io.fleetscope.schemas.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * The Kafka client's own metrics (a consumer's, a producer's, Kafka Streams') as Prometheus gauges,
 * read at each scrape: {@code fleetscope_<component>_<group>_<name>} with the group's
 * {@code -metrics} suffix dropped and {@code -} written {@code _}, the Kafka tags as labels. E.g.
 * the consumer's {@code consumer-fetch-manager-metrics / records-lag-max} becomes
 * {@code fleetscope_sink_consumer_fetch_manager_records_lag_max{client_id="..."}}. Non-numeric
 * metrics are left out. Kafka's cumulative {@code -total} metrics are counters (exposed with their
 * {@code _total} suffix, as Kafka names them); every other one is a gauge.
 */
public final class KafkaClientMetrics implements MultiCollector {
  private final String prefix;
  private final List<Supplier<Map<MetricName, ? extends Metric>>> sources = new CopyOnWriteArrayList<>();

  public KafkaClientMetrics(String component) {
    this.prefix = MetricNames.prefix(component);
  }

  /** Adds a client's metrics, e.g. {@code consumer::metrics} or {@code streams::metrics}. */
  public KafkaClientMetrics add(Supplier<Map<MetricName, ? extends Metric>> source) {
    sources.add(source);
    return this;
  }

  /** The Prometheus name of a Kafka metric. */
  public String nameOf(MetricName m) {
    String group = m.group().endsWith("-metrics") ? m.group().substring(0, m.group().length() - "-metrics".length()) : m.group();
    return prefix + MetricNames.sanitize(group) + "_" + MetricNames.sanitize(m.name());
  }

  @Override
  public MetricSnapshots collect() {
    Map<String, Map<Labels, Double>> byName = new TreeMap<>();
    for (Supplier<Map<MetricName, ? extends Metric>> s : sources) {
      Map<MetricName, ? extends Metric> metrics;
      try {
        metrics = s.get();
      } catch (RuntimeException e) { // a client closed meanwhile has nothing more to say
        continue;
      }
      for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
        Object v = e.getValue().metricValue();
        if (!(v instanceof Number n)) {
          continue;
        }
        Labels.Builder labels = Labels.builder();
        List<String> seen = new ArrayList<>();
        for (Map.Entry<String, String> t : new TreeMap<>(e.getKey().tags()).entrySet()) {
          String k = MetricNames.sanitize(t.getKey());
          if (!seen.contains(k)) {
            seen.add(k);
            labels.label(k, t.getValue() == null ? "" : t.getValue());
          }
        }
        byName.computeIfAbsent(nameOf(e.getKey()), k -> new java.util.LinkedHashMap<>())
            .putIfAbsent(labels.build(), n.doubleValue());
      }
    }
    MetricSnapshots.Builder out = MetricSnapshots.builder();
    byName.forEach((name, points) -> {
      if (!name.endsWith("_total")) {
        return;
      }
      CounterSnapshot.Builder c = CounterSnapshot.builder().name(name.substring(0, name.length() - "_total".length()))
          .help("Kafka client metric (cumulative), read at scrape time");
      points.forEach((labels, value) -> {
        if (value >= 0) { // NaN and negative values are not counter values
          c.dataPoint(CounterDataPointSnapshot.builder().labels(labels).value(value).build());
        }
      });
      out.metricSnapshot(c.build());
    });
    byName.forEach((name, points) -> {
      if (name.endsWith("_total")) {
        return;
      }
      if (name.endsWith("_created") || name.endsWith("_bucket") || name.endsWith("_info")) {
        name = name + "_value";
      }
      if (out.containsMetricName(name)) {
        return;
      }
      GaugeSnapshot.Builder g = GaugeSnapshot.builder().name(name).help("Kafka client metric, read at scrape time");
      points.forEach((labels, value) -> g.dataPoint(GaugeDataPointSnapshot.builder().labels(labels).value(value).build()));
      out.metricSnapshot(g.build());
    });
    return out.build();
  }
}
