package io.fleetscope.flink.core;

/**
 * One analytic wired as a Flink job fragment. {@link FleetAnalytics} builds every job of the
 * {@link JobCatalog} into one StreamExecutionEnvironment; sources and sinks are not the job's
 * business (Kafka, a file or a collection is chosen by the caller).
 *
 * <p>An implementation has a public no-argument constructor (the catalog loads it by class name),
 * binds its config section in {@link #build}, gives its operators a name and a uid prefixed with
 * {@link #name()}, and hands every output to {@code out}: derived records, anomalies, dead letters
 * (and, for operators built on {@link TickedKeyedFunction}, {@link JobOutputs#sideOutputsOf}).
 */
public interface AnalyticJob {
  /** Short stable name, e.g. "rail"; also the Anomaly.source of its anomalies. */
  String name();

  void build(JobInputs in, JobOutputs out, AnalyticsConfig cfg);
}
