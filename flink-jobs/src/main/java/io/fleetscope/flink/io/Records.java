package io.fleetscope.flink.io;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/** Field access shared by every raw record class (ts, cluster, node/device, agent_seq). */
public final class Records {
  private Records() {}

  private static final ConcurrentHashMap<Schema, int[]> POS = new ConcurrentHashMap<>();
  private static final int TS = 0;
  private static final int SEQ = 1;
  private static final int NODE = 2;
  private static final int DEVICE = 3;
  private static final int CLUSTER = 4;

  private static int[] positions(Schema s) {
    return POS.computeIfAbsent(s, sc -> new int[] {
        pos(sc, "ts"), pos(sc, "agent_seq"), pos(sc, "node"), pos(sc, "device"), pos(sc, "cluster")});
  }

  private static int pos(Schema s, String f) {
    Schema.Field field = s.getField(f);
    return field == null ? -1 : field.pos();
  }

  /** The record's event time {@code ts}; Long.MIN_VALUE when it has none. */
  public static long ts(SpecificRecord r) {
    // the high-rate classes directly, the others by schema position
    if (r instanceof GpuSample g) {
      return g.getTs();
    }
    if (r instanceof IbPortSample i) {
      return i.getTs();
    }
    int p = positions(r.getSchema())[TS];
    Object v = p < 0 ? null : r.get(p);
    return v instanceof Long l ? l : Long.MIN_VALUE;
  }

  public static long agentSeq(SpecificRecord r) {
    if (r instanceof GpuSample g) {
      return g.getAgentSeq();
    }
    if (r instanceof IbPortSample i) {
      return i.getAgentSeq();
    }
    int p = positions(r.getSchema())[SEQ];
    Object v = p < 0 ? null : r.get(p);
    return v instanceof Long l ? l : 0L;
  }

  public static String cluster(SpecificRecord r) {
    if (r instanceof GpuSample g) {
      return g.getCluster();
    }
    if (r instanceof IbPortSample i) {
      return i.getCluster();
    }
    return str(r, CLUSTER);
  }

  /** {@code node} when the record has one, else {@code device} (PDUs, CDUs). */
  public static String nodeOrDevice(SpecificRecord r) {
    if (r instanceof GpuSample g) {
      return g.getNode();
    }
    if (r instanceof IbPortSample i) {
      return i.getNode();
    }
    String n = str(r, NODE);
    return n != null ? n : str(r, DEVICE);
  }

  private static String str(SpecificRecord r, int which) {
    int p = positions(r.getSchema())[which];
    Object v = p < 0 ? null : r.get(p);
    return v == null ? null : v.toString();
  }

  /** Orders records by event time, then agent sequence (deterministic whatever the arrival order). */
  public static int compareByTime(SpecificRecord a, SpecificRecord b) {
    int c = Long.compare(ts(a), ts(b));
    return c != 0 ? c : Long.compare(agentSeq(a), agentSeq(b));
  }

  /**
   * Whether an IB port state names ACTIVE in any case ("4: ACTIVE", "Active"), without building an
   * upper-case copy per sample; a missing state counts as active (not known to be down).
   */
  public static boolean portActive(String state) {
    if (state == null) {
      return true;
    }
    for (int i = 0, n = state.length() - 6; i <= n; i++) {
      if (state.regionMatches(true, i, "ACTIVE", 0, 6)) {
        return true;
      }
    }
    return false;
  }
}
