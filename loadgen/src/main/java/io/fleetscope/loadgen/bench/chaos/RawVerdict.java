package io.fleetscope.loadgen.bench.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The raw records' count at the end of a chaos run, by (topic, node, agent_seq): what the broker
 * acknowledged to the generator against what TimescaleDB holds and what the raw topics hold.
 *
 * @param acked distinct records the broker acknowledged
 * @param stored distinct records in TimescaleDB
 * @param lost acknowledged records missing from TimescaleDB
 * @param duplicatedStored records stored more than once (the natural keys should make this 0)
 * @param unacknowledgedStored stored records whose send the generator saw fail (a timeout after the broker wrote them)
 * @param onTopics records read back from the raw topics, repeats included
 * @param resentOnTopics copies on the raw topics beyond the first (what the producers re-sent)
 * @param lostSample up to 10 lost ids, for the report
 */
public record RawVerdict(long acked, long stored, long lost, long duplicatedStored, long unacknowledgedStored,
    long onTopics, long resentOnTopics, List<RecordId> lostSample) {

  /** Compares the three tallies. */
  public static RawVerdict of(RecordTally acked, RecordTally stored, RecordTally onTopics) {
    Map<RecordId, Integer> a = acked.snapshot();
    Map<RecordId, Integer> s = stored.snapshot();
    long lost = 0;
    List<RecordId> sample = new ArrayList<>();
    for (RecordId id : a.keySet()) {
      if (!s.containsKey(id)) {
        lost++;
        if (sample.size() < 10) {
          sample.add(id);
        }
      }
    }
    long dup = s.values().stream().filter(n -> n > 1).mapToLong(n -> n - 1).sum();
    long unacked = s.keySet().stream().filter(id -> !a.containsKey(id)).count();
    long resent = onTopics.snapshot().values().stream().filter(n -> n > 1).mapToLong(n -> n - 1).sum();
    return new RawVerdict(a.size(), s.size(), lost, dup, unacked, onTopics.total(), resent, List.copyOf(sample));
  }

  /** Nothing lost, nothing stored twice. */
  public boolean passed() {
    return acked > 0 && lost == 0 && duplicatedStored == 0;
  }
}
