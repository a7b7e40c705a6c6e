package io.fleetscope.flink.core;

/**
 * One analytic: a fragment of the Flink program that reads raw streams and writes derived records
 * and anomalies. {@link FleetAnalytics} builds the analytics it is given (in production, every one
 * of {@code io.fleetscope.flink.AnalyticCatalog}) into one StreamExecutionEnvironment; sources and
 * sinks are not the analytic's business (Kafka, a file or a collection is chosen by the caller).
 *
 * <p>An implementation binds its config section in {@link #build}, gives its operators a name and
 * a uid prefixed with {@link #name()}, and hands every output to {@code out}: derived records,
 * anomalies, dead letters (and, for operators built on {@link TickedKeyedFunction},
 * {@link AnalyticOutputs#sideOutputsOf}).
 */
public interface Analytic {
  /** Short stable name, e.g. "rail"; also the Anomaly.source of its anomalies and the prefix of its operator uids. */
  String name();

  void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg);
}
