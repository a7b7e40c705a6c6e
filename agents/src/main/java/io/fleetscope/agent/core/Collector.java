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
   * The records of the last {@link #collect} are in the spool: a collector that reads a log may now
   * persist how far it has read (so a restart neither loses nor repeats lines). Not called in
   * dry runs. Default: nothing.
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
