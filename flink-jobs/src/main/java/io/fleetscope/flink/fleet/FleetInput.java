package io.fleetscope.flink.fleet;

/**
 * What the first stages of the hygiene analytic hand on (a POJO, so Flink serializes it without Kryo):
 * a job's allocation on one node with the models of those GPUs, or a heartbeat of one source.
 */
public class FleetInput {
  public String cluster;
  public long ts;

  // allocation
  public String job;
  public String node;
  /** GPU indices the job holds on the node (empty: it left the node). */
  public int[] gpus;
  /** Model of each GPU in {@link #gpus} (null when the inventory does not know). */
  public String[] models;

  // heartbeat
  /** gpu, ib, pdu or coolant. */
  public String stream;
  /** node or device id. */
  public String source;
  public boolean isNode;
  public String rack;

  public FleetInput() {}

  public String sourceKey() {
    return stream + "|" + source;
  }

  public static final java.util.Comparator<FleetInput> ALLOCATION_ORDER =
      java.util.Comparator.comparingLong((FleetInput f) -> f.ts).thenComparing(f -> f.node);
  public static final java.util.Comparator<FleetInput> HEARTBEAT_ORDER =
      java.util.Comparator.comparingLong((FleetInput f) -> f.ts).thenComparing(FleetInput::sourceKey);
}
