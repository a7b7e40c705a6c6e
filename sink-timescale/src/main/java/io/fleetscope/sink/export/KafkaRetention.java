package io.fleetscope.sink.export;

/**
 * Whether a Kafka partition still holds the start of an export's range, from its log start offset,
 * its end offset and the first offset whose record timestamp is at or after the range's start minus
 * the allowed lateness ({@code offsetsForTimes}). Kafka keeps a partition from its log start offset on:
 * when that is 0 nothing was ever deleted; otherwise the range is complete only if a retained record is
 * older than the range's start (the first offset at the start lies after the log start).
 */
final class KafkaRetention {
  private KafkaRetention() {}

  /**
   * The decision for one partition.
   *
   * @param retained whether every record of the range is still in the partition
   * @param start the first offset to read (meaningful when retained)
   * @param reason why not, for the log (null when retained)
   */
  record Decision(boolean retained, long start, String reason) {}

  /**
   * @param logStart the partition's first retained offset (beginningOffsets)
   * @param end the partition's end offset (the next offset to be written)
   * @param atStart the first offset with a timestamp at or after the range's start minus the lateness,
   *     null when every retained record is older
   */
  static Decision of(long logStart, long end, Long atStart) {
    if (logStart == 0) {
      return new Decision(true, atStart == null ? end : atStart, null);
    }
    if (atStart == null) {
      return logStart == end
          ? new Decision(false, end, "every record deleted up to offset " + end)
          : new Decision(true, end, null); // all retained records are older than the range: nothing in it was deleted
    }
    if (atStart > logStart) {
      return new Decision(true, atStart, null);
    }
    return new Decision(false, logStart, "records before offset " + logStart + " deleted, the first retained one is not older"
        + " than the range's start");
  }

  /**
   * A compacted partition holds the state as of the range's start only if nothing was compacted or
   * deleted: its log starts at 0 and the offsets read are contiguous.
   */
  static String compactedGap(long logStart, long expected, long offset) {
    if (logStart != 0) {
      return "records before offset " + logStart + " deleted";
    }
    return offset == expected ? null : "offsets " + expected + ".." + (offset - 1) + " compacted away";
  }
}
