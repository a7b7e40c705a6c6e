package io.fleetscope.flink.peer;

import io.fleetscope.avro.IbPortSample;
import java.io.Serializable;

/**
 * Per-port rates from successive raw counter samples of one HCA port: transmit Gb/s and
 * {@code xmit_wait} ticks per second. A counter that goes down is either a 32-bit wrap (when the
 * previous value was within 32 bits and the wrapped delta is below 2^31) or a reset, in which case
 * the new value itself is the delta (as Prometheus {@code rate()} does). Samples that are not newer
 * than the previous one yield nothing.
 */
public final class PortRateCalculator implements Serializable {
  private static final long WRAP_32 = 1L << 32;
  private long prevTs = Long.MIN_VALUE;
  private Long prevTx;
  private Long prevWait;

  /** Rates over the interval ending at this sample; fields null when not computable. */
  public record Rates(long ts, long intervalMs, Double txGbps, Double xmitWaitPerS) {}

  public Rates onSample(IbPortSample s) {
    if (s.getTs() <= prevTs) {
      return null;
    }
    Rates out = null;
    if (prevTs != Long.MIN_VALUE) {
      long dtMs = s.getTs() - prevTs;
      double dt = dtMs / 1000.0;
      Double tx = delta(prevTx, s.getXmitBytes());
      Double wait = delta(prevWait, s.getXmitWait());
      out = new Rates(s.getTs(), dtMs, tx == null ? null : tx * 8 / 1e9 / dt, wait == null ? null : wait / dt);
    }
    prevTs = s.getTs();
    prevTx = s.getXmitBytes();
    prevWait = s.getXmitWait();
    return out;
  }

  /** Delta of a raw counter with wrap and reset handling; null when either value is missing. */
  static Double delta(Long prev, Long cur) {
    if (prev == null || cur == null) {
      return null;
    }
    if (cur >= prev) {
      return (double) (cur - prev);
    }
    if (prev < WRAP_32) {
      long wrapped = WRAP_32 - prev + cur;
      if (wrapped < (1L << 31)) {
        return (double) wrapped;
      }
    }
    return (double) cur;
  }
}
