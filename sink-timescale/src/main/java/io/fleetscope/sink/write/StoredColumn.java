package io.fleetscope.sink.write;

/**
 * A column that stores an Avro field in another unit, chosen so that TimescaleDB's compression
 * (delta-of-delta + simple8b for integers) stores it in few bits without losing a digit the
 * device reports. The view over the table converts back (see the migration that made the table).
 *
 * @param field the Avro field
 * @param conversion how the field's value becomes the column's
 */
public record StoredColumn(String field, Conversion conversion) {

  /** The conversions; each is exact for values at the precision the devices report. */
  public enum Conversion {
    /**
     * A double in a unit to whole thousandths of it, rounded (watts to milliwatts: NVML's and DCGM's
     * unit; nvidia-smi prints two decimals). NaN and infinities are refused.
     */
    THOUSANDTHS,
    /** A byte count to whole KiB (NVML's NVLink throughput counters and nvidia-smi count in KiB), floor. */
    KIB,
    /** What {@link #KIB} leaves: the bytes beyond the whole KiB (0 for a counter in KiB). */
    KIB_REMAINDER;

    /**
     * @throws IllegalArgumentException for a value the column cannot hold
     */
    public Object apply(String column, Object v) {
      if (v == null) {
        return null;
      }
      return switch (this) {
        case THOUSANDTHS -> {
          double d = ((Number) v).doubleValue();
          if (!Double.isFinite(d) || Math.abs(d) * 1000 > Long.MAX_VALUE / 2.0) {
            throw new IllegalArgumentException("value " + d + " cannot be stored in column " + column);
          }
          yield Math.round(d * 1000);
        }
        case KIB -> Math.floorDiv(((Number) v).longValue(), 1024L);
        case KIB_REMAINDER -> Math.floorMod(((Number) v).longValue(), 1024L);
      };
    }
  }
}
