package io.fleetscope.flink.core;

import io.fleetscope.flink.io.Records;
import java.io.Serializable;
import org.apache.avro.specific.SpecificRecord;

/**
 * Which node (or device: a PDU, a CDU) a keyed stage runs for: the cluster and the node. Flink keys
 * the stage by its text {@code cluster|node} ({@link #toString()}), which a savepoint's key groups
 * are built from, so the operator key stays a string and an analytic gets it back as this record.
 * A cluster name has no {@code |} in it; a node name may.
 */
public record NodeKey(String cluster, String node) implements Serializable {
  /** The node of a raw record: its cluster and its {@code node}, or {@code device} when it has none. */
  public static NodeKey of(SpecificRecord r) {
    return new NodeKey(Records.cluster(r), Records.nodeOrDevice(r));
  }

  /** The key of {@link #toString()} read back. */
  public static NodeKey parse(String key) {
    int bar = key.indexOf('|');
    if (bar < 0) {
      throw new IllegalArgumentException("not a node key (cluster|node): " + key);
    }
    return new NodeKey(key.substring(0, bar), key.substring(bar + 1));
  }

  /** {@code cluster|node}: the operator key of a node stage. */
  @Override
  public String toString() {
    return cluster + "|" + node;
  }
}
