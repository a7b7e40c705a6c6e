package io.fleetscope.flink.core;

import io.fleetscope.flink.io.Records;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * The key of a node stage or of a {@link KeyedAnalyticFunction}, {@code cluster|node} (or
 * {@code cluster|device}; {@link NodeFunction#nodeKey}), with the key
 * strings of recently seen nodes reused: the decoder hands out the same String instances for a
 * node's names, so a node's key is built (and its hash computed) once instead of for every record,
 * on both sides of the shuffle. Each task has its own copy (Flink deserializes one per task), so
 * the cache needs no locking.
 */
public final class NodeKeySelector<T extends SpecificRecord> implements KeySelector<T, String> {
  private static final long serialVersionUID = 1L;
  private static final int SLOTS = 4096; // power of two; a subtask's nodes, or most of them

  private transient String[] clusters;
  private transient String[] nodes;
  private transient String[] keys;

  @Override
  public String getKey(T r) {
    String cluster = Records.cluster(r);
    String node = Records.nodeOrDevice(r);
    if (cluster == null || node == null) {
      return NodeFunction.nodeKey(r);
    }
    if (keys == null) {
      clusters = new String[SLOTS];
      nodes = new String[SLOTS];
      keys = new String[SLOTS];
    }
    int h = node.hashCode() * 31 + cluster.hashCode();
    int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
    String n = nodes[slot];
    if (n != null && (n == node || n.equals(node))) {
      String c = clusters[slot];
      if (c == cluster || c.equals(cluster)) {
        return keys[slot];
      }
    }
    String key = cluster + "|" + node;
    key.hashCode(); // computed once, kept with the string
    clusters[slot] = cluster;
    nodes[slot] = node;
    keys[slot] = key;
    return key;
  }
}
