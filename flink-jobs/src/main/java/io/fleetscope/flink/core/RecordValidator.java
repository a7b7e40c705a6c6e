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

  /** Whether an event time is possible: not before min_valid_ts_ms, not beyond now + max_future_ms. */
  public boolean tsInRange(long ts, long now) {
    return ts >= minTs && ts <= now + maxFutureMs;
  }

  private static final int SKIP = 0;
  private static final int TS = 1;
  private static final int ID = 2;
  private static final int TEMP = 3;
  private static final int PCT = 4;
  private static final int NON_NEGATIVE = 5;
  private static final int FINITE = 6;
  private static final java.util.concurrent.ConcurrentHashMap<Schema, Rules> RULES = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The rule of each field of a schema and, for numbers, the closed range a value must lie in
   * (NaN and infinities fall outside every range), computed once per schema.
   */
  private record Rules(int[] kind, double[] lo, double[] hi) {}

  private static Rules rules(Schema s) {
    Rules cached = RULES.get(s);
    return cached != null ? cached : RULES.computeIfAbsent(s, sc -> {
      int n = sc.getFields().size();
      int[] r = new int[n];
      double[] lo = new double[n];
      double[] hi = new double[n];
      for (Schema.Field f : sc.getFields()) {
        String name = f.name();
        int i = f.pos();
        r[i] = name.equals("ts") ? TS
            : name.equals("cluster") || name.equals("node") || name.equals("device") ? ID
            : name.endsWith("_c") ? TEMP
            : name.endsWith("_pct") ? PCT
            : nonNegative(name) ? NON_NEGATIVE
            : FINITE;
        lo[i] = r[i] == TEMP ? -60 : r[i] == PCT || r[i] == NON_NEGATIVE ? 0 : -Double.MAX_VALUE;
        hi[i] = r[i] == TEMP ? 200 : r[i] == PCT ? 100.5 : Double.MAX_VALUE;
      }
      return new Rules(r, lo, hi);
    });
  }

  /** @param now the reference wall-clock time, epoch ms */
  public String check(SpecificRecord r, long now) {
    Schema s = r.getSchema();
    Rules rules = rules(s);
    int[] kind = rules.kind();
    for (int i = 0; i < kind.length; i++) {
      int rule = kind[i];
      if (rule == SKIP) {
        continue;
      }
      Object v = r.get(i);
      if (v == null) {
        continue;
      }
      switch (rule) {
        case TS -> {
          long ts = (Long) v;
          if (!tsInRange(ts, now)) {
            return ts < minTs ? "impossible ts=" + ts + " (before min_valid_ts_ms=" + minTs + ")"
                : "ts=" + ts + " is " + (ts - now) + " ms in the future (max_future_ms=" + maxFutureMs + ")";
          }
        }
        case ID -> {
          if (v.toString().isBlank()) {
            return "empty " + s.getFields().get(i).name();
          }
        }
        default -> {
          // the boxed types first: one type check each instead of a megamorphic doubleValue()
          double d;
          if (v instanceof Double x) {
            d = x;
          } else if (v instanceof Long x) {
            d = x;
          } else if (v instanceof Integer x) {
            d = x;
          } else if (v instanceof Number x) {
            d = x.doubleValue();
          } else {
            continue;
          }
          if (!(d >= rules.lo()[i] && d <= rules.hi()[i])) {
            return number(rule, (Number) v, s.getFields().get(i));
          }
        }
      }
    }
    return null;
  }

  private static String number(int rule, Number n, Schema.Field f) {
    double d = n.doubleValue();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return f.name() + " is " + d;
    }
    if (rule == TEMP && (d < -60 || d > 200)) {
      return "impossible " + f.name() + "=" + d + " (allowed -60..200 C)";
    }
    if (rule == PCT && (d < 0 || d > 100.5)) {
      return "impossible " + f.name() + "=" + d + " (allowed 0..100)";
    }
    if (rule == NON_NEGATIVE && d < 0) {
      return "negative " + f.name() + "=" + n;
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
