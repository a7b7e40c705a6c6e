package io.fleetscope.loadgen.bench.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The real node agent's raw records at the end of a chaos run, by its own {@code agent_seq}: the
 * agent numbers every record it spools +1, so every number between the first and the last one
 * stored must be stored, exactly once, except the records the agent itself dropped and counted
 * ({@code fleetscope_agent_records_dropped_total}, summed over its processes: a full spool).
 *
 * @param node the agent's node name
 * @param firstSeq lowest agent_seq stored (-1 when none)
 * @param lastSeq highest agent_seq stored (-1 when none)
 * @param expected numbers from the first to the last stored one
 * @param stored distinct agent_seq stored
 * @param missing numbers between the first and the last that are not stored
 * @param droppedCounted records the agent counted as dropped
 * @param lost missing records beyond those the agent counted as dropped
 * @param duplicatedStored rows beyond the first per agent_seq
 * @param missingSample up to 10 missing numbers, for the report
 */
public record AgentVerdict(String node, long firstSeq, long lastSeq, long expected, long stored, long missing,
    long droppedCounted, long lost, long duplicatedStored, List<Long> missingSample) {

  /** {@code rowsBySeq}: rows in TimescaleDB per agent_seq of the agent's node. */
  public static AgentVerdict of(String node, Map<Long, Integer> rowsBySeq, long droppedCounted) {
    SortedMap<Long, Integer> s = new TreeMap<>(rowsBySeq);
    s.values().removeIf(n -> n == null || n <= 0);
    if (s.isEmpty()) {
      return new AgentVerdict(node, -1, -1, 0, 0, 0, droppedCounted, 0, 0, List.of());
    }
    long first = s.firstKey();
    long last = s.lastKey();
    long expected = last - first + 1;
    long missing = expected - s.size();
    List<Long> sample = new ArrayList<>();
    long prev = first - 1;
    for (long seq : s.keySet()) {
      for (long gap = prev + 1; gap < seq && sample.size() < 10; gap++) {
        sample.add(gap);
      }
      prev = seq;
    }
    long dup = s.values().stream().mapToLong(n -> n - 1).sum();
    return new AgentVerdict(node, first, last, expected, s.size(), missing, droppedCounted,
        Math.max(0, missing - droppedCounted), dup, List.copyOf(sample));
  }

  /** The agent's rows per agent_seq in {@code stored}: its records on {@code topic} from {@code node}. */
  public static Map<Long, Integer> rowsBySeq(RecordTally stored, String topic, String node) {
    Map<Long, Integer> out = new TreeMap<>();
    stored.snapshot().forEach((id, n) -> {
      if (id.topic().equals(topic) && id.source().equals(node)) {
        out.merge(id.seq(), n, Integer::sum);
      }
    });
    return out;
  }

  /** Something stored, nothing lost beyond what the agent counted as dropped, nothing stored twice. */
  public boolean passed() {
    return stored > 0 && lost == 0 && duplicatedStored == 0;
  }
}
