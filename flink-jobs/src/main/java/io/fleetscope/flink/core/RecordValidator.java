package io.fleetscope.flink.core;

import java.io.Serializable;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Decides whether a raw record is possible. Rules follow the unit in the field name
 * (ARCHITECTURE: snake_case, units in the name), so they apply to every topic:
 * {@code ts} within [min_valid_ts_ms, now + max_future_ms]; cluster/node/device not empty;
 * temperatures ({@code *_c}) within -60..200 C; percentages ({@code *_pct}) within 0..100.5;
 * counters, bytes, watts, amps, volts, flows, clocks, rates and sequence numbers never negative;
 * no NaN or infinite number. Returns the reason, or null when the record is valid.
 */
public final class RecordValidator implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long minTs;
  private final long maxFutureMs;

  public RecordValidator(PipelineConfig p) {
    this(p.minValidTsMs(), p.maxFutureMs());
  }

  public RecordValidator(long minTs, long maxFutureMs) {
    this.minTs = minTs;
    this.maxFutureMs = maxFutureMs;
  }

  /** @param now the reference wall-clock time, epoch ms */
  public String check(SpecificRecord r, long now) {
    Schema s = r.getSchema();
    for (Schema.Field f : s.getFields()) {
      Object v = r.get(f.pos());
      String name = f.name();
      if (v == null) {
        continue;
      }
      if (name.equals("ts")) {
        long ts = (Long) v;
        if (ts < minTs) {
          return "impossible ts=" + ts + " (before min_valid_ts_ms=" + minTs + ")";
        }
        if (ts > now + maxFutureMs) {
          return "ts=" + ts + " is " + (ts - now) + " ms in the future (max_future_ms=" + maxFutureMs + ")";
        }
        continue;
      }
      if ((name.equals("cluster") || name.equals("node") || name.equals("device")) && v.toString().isBlank()) {
        return "empty " + name;
      }
      if (v instanceof Number n) {
        double d = n.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          return name + " is " + d;
        }
        if (name.endsWith("_c")) {
          if (d < -60 || d > 200) {
            return "impossible " + name + "=" + d + " (allowed -60..200 C)";
          }
        } else if (name.endsWith("_pct")) {
          if (d < 0 || d > 100.5) {
            return "impossible " + name + "=" + d + " (allowed 0..100)";
          }
        } else if (d < 0 && nonNegative(name)) {
          return "negative " + name + "=" + n;
        }
      }
    }
    return null;
  }

  private static boolean nonNegative(String name) {
    return name.equals("agent_seq") || name.equals("gpu") || name.equals("port") || name.equals("rail")
        || name.equals("bytes") || name.equals("xid") || name.equals("step")
        || name.endsWith("_bytes") || name.endsWith("_pkts") || name.endsWith("_total") || name.endsWith("_errors")
        || name.endsWith("_w") || name.endsWith("_va") || name.endsWith("_a") || name.endsWith("_v")
        || name.endsWith("_wh") || name.endsWith("_lpm") || name.endsWith("_mhz") || name.endsWith("_mib")
        || name.endsWith("_gbps") || name.endsWith("_sbe") || name.endsWith("_dbe") || name.endsWith("_ts")
        || name.endsWith("_wait") || name.endsWith("_downed") || name.endsWith("_recovery")
        || name.endsWith("_discards") || name.endsWith("_sent") || name.endsWith("_handled")
        || name.endsWith("_rx") || name.endsWith("_tx") || name.startsWith("remapped_rows")
        || name.equals("ecn_marked_pkts") || name.equals("counter_width_bits");
  }
}
