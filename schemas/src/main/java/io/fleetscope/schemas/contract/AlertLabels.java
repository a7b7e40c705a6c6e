package io.fleetscope.schemas.contract;

/**
 * Names of the Prometheus-style labels that the analytics set on an anomaly and the correlator reads
 * to validate, group and route it (ARCHITECTURE.md, "Anomalies"). Labels identify an anomaly: they are
 * what its {@link Fingerprint} is computed over.
 */
public final class AlertLabels {
  /** The alert name, one of ARCHITECTURE.md's list, each with a runbook section. */
  public static final String ALERTNAME = "alertname";
  /** {@value #CRITICAL} (page), {@value #WARNING} (ticket) or {@value #INFO}. */
  public static final String SEVERITY = "severity";
  public static final String CLUSTER = "cluster";
  public static final String NODE = "node";
  /** The GPU index on its node. */
  public static final String GPU = "gpu";
  /**
   * The GPU instance id (GI) of a MIG device of {@link #GPU}, for an anomaly on one MIG device (the
   * identity of fleet.gpu.mig.v1 samples); absent for an anomaly on the whole GPU.
   */
  public static final String GPU_INSTANCE = "gpu_instance_id";
  public static final String RAIL = "rail";
  public static final String RACK = "rack";
  /** A facility device (PDU, CDU) or an HCA (e.g. mlx5_0). */
  public static final String DEVICE = "device";
  /** The port of an HCA. */
  public static final String PORT = "port";
  public static final String CDU = "cdu";
  /** A CDU's coolant loop, as a cooling anomaly names it. */
  public static final String LOOP = "loop";
  /** A node's coolant loop, as the inventory names it. */
  public static final String CDU_LOOP = "cdu_loop";

  public static final String CRITICAL = "critical";
  public static final String WARNING = "warning";
  public static final String INFO = "info";

  private AlertLabels() {}
}
