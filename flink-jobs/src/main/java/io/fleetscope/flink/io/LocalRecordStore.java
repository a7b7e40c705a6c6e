package io.fleetscope.flink.io;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * Records of a bounded run held once in this JVM, handed to the job's operators by a handle instead
 * of inside the job graph. A collection captured by an operator's function is serialized into the
 * job graph and deserialized by every task that runs it: for the 950,000 records of an hour of
 * 1,000 GPUs that was several copies of the input in the heap (the 24 h soak ran out of 7 GB). The
 * operators of {@link CollectionSource} carry only the handle and read the list the client built;
 * that works on a local MiniCluster, where the tasks run in the client's JVM, which is the only place
 * a bounded in-memory source runs (analyze, bench, tests).
 */
public final class LocalRecordStore {
  private static final Map<String, List<SpecificRecord>> RECORDS = new ConcurrentHashMap<>();

  private LocalRecordStore() {}

  /** Holds {@code records} until {@link #release}; the handle to read them with. */
  public static String hold(List<SpecificRecord> records) {
    String handle = UUID.randomUUID().toString();
    RECORDS.put(handle, List.copyOf(records));
    return handle;
  }

  /**
   * The records held under {@code handle}.
   *
   * @throws IllegalStateException when they are not in this JVM: the job runs on a remote cluster,
   *     where an in-memory source cannot go, or its run was already released
   */
  public static List<SpecificRecord> get(String handle) {
    List<SpecificRecord> rs = RECORDS.get(handle);
    if (rs == null) {
      throw new IllegalStateException("records " + handle + " are not held in this JVM: an in-memory source"
          + " runs only on a local MiniCluster, while its run is open");
    }
    return rs;
  }

  public static void release(String handle) {
    RECORDS.remove(handle);
  }

  /** How many record lists are held (for tests: a finished run holds none). */
  static int held() {
    return RECORDS.size();
  }
}
