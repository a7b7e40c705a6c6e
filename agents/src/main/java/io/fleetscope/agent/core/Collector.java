package io.fleetscope.agent.core;

import java.util.List;

/**
 * One telemetry source (one per folder/package under io.fleetscope.agent.collectors).
 *
 * <p>A collector gathers (runs a command with a timeout, reads files, scrapes HTTP, polls SNMP or
 * Modbus) and hands the raw bytes to a pure parser; it never talks to Kafka. The scheduler calls
 * {@link #collect} once per interval on its own thread with a deadline, so a collector that hangs or
 * throws never stops the others. The publisher stamps {@code agent_seq} on every record it sends.
 */
public interface Collector extends AutoCloseable {

  /** Stable name used in config, logs and self-metrics, e.g. {@code gpu.dcgm-exporter}. */
  String name();

  /**
   * Gathers and parses one round.
   *
   * @param ctx sample time, cluster, node name and other per-round facts
   * @return the records of this round, each with its topic and key
   * @throws Exception when the source failed; the scheduler counts it and logs one line
   */
  List<AgentRecord> collect(CollectContext ctx) throws Exception;

  /**
   * Called once, before the first round, with the newest {@link #checkpoint} the sink kept for this
   * collector (the spool), or null when there is none (first start, dry run). Default: nothing.
   */
  default void restore(String checkpoint) throws Exception {}

  /**
   * The state to keep together with the records of the last {@link #collect} (e.g. how far a log was
   * read), or null for none or unchanged. The spool writes it in the same append as the records, so a
   * restart, even after a kill at any point, neither loses nor repeats a line. Default: null.
   */
  default String checkpoint() throws Exception {
    return null;
  }

  /**
   * The records (and checkpoint) of the last {@link #collect} are in the spool: the collector may
   * take the checkpoint as its base for the next one. Not called in dry runs. Default: nothing.
   */
  default void committed() throws Exception {}

  /**
   * The records of the last {@link #collect} went nowhere (its deadline passed, the spool refused
   * them): a collector that reads a log should read those lines again next round. Default: nothing.
   */
  default void discarded() throws Exception {}

  @Override
  default void close() throws Exception {}
}
