package io.fleetscope.flink.ecc;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Fleet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Node n1, GPUs 0 and 1, one sample per minute for 3 h. Faults on GPU 1: +50 corrected errors per
 * minute from minute 90 to 119; one DBE and row remap pending at minute 150 (pending until 170);
 * XID 79 at minute 60 + 1 s; XID 48 at minute 150 + 0.5 s delivered twice (agent retry).
 */
public final class EccScenario {
  public static final long MIN = 60_000L;

  private EccScenario() {}

  /** Windows short enough for a 3 h scenario: tick 1 min, short 10 min, long 60 min. */
  public static AnalyticsConfig config() {
    return AnalyticsConfig.fromYaml("""
        ecc:
          tick_ms: 60000
          short_window_ms: 600000
          long_window_ms: 3600000
          sbe_rate_per_h: 100.0
          dbe_quiet_ms: 600000
          xid_quiet_ms: 300000
        """);
  }

  public static long m(long minutes) {
    return Fleet.T0 + minutes * MIN;
  }

  public static List<SpecificRecord> records(boolean faults) {
    List<SpecificRecord> out = new ArrayList<>();
    out.add(Fleet.node("n1", "r7", 2, 2, m(-1)));
    long seq = 0;
    for (int minute = 0; minute < 180; minute++) {
      for (int gpu = 0; gpu < 2; gpu++) {
        GpuSample.Builder b = Fleet.gpu("n1", gpu, m(minute), seq++);
        if (faults && gpu == 1) {
          b.setEccSbeTotal(minute >= 90 ? 50L * (Math.min(minute, 119) - 89) : 0L);
          b.setEccDbeTotal(minute >= 150 ? 1L : 0L);
          b.setRowRemapPending(minute >= 150 && minute < 170);
        }
        out.add(b.build());
      }
    }
    if (faults) {
      out.add(Fleet.xid("n1", 1, 79, m(60) + 1000, 100_000));
      out.add(Fleet.xid("n1", 1, 48, m(150) + 500, 100_001));
      out.add(Fleet.xid("n1", 1, 48, m(150) + 500, 100_001));
    }
    out.sort(Comparator.comparingLong(io.fleetscope.flink.io.Records::ts));
    return out;
  }
}
