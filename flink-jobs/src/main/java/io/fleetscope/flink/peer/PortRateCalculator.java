package io.fleetscope.flink.peer;

import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.core.CounterDelta;
import java.io.Serializable;

/**
 * Per-port rates from successive raw counter samples of one HCA port: transmit Gb/s and
 * {@code xmit_wait} ticks per second, with the framework's {@link CounterDelta} (as Prometheus
 * {@code rate()}): a counter that goes down was reset, unless the sample says it is narrower than
 * 64 bits ({@code counter_width_bits}; the data counters count 4-octet words, so their byte
 * modulus is 4 * 2^width) and going round the modulus gives an increase of at most half of it,
 * in which case it wrapped. Samples that are not newer than the previous one yield nothing.
 */
public final class PortRateCalculator implements Serializable {
  private static final long serialVersionUID = 1L;
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
      Double tx = delta(prevTx, s.getXmitBytes(), CounterDelta.modulus(s.getCounterWidthBits(), 4));
      Double wait = delta(prevWait, s.getXmitWait(), CounterDelta.modulus(s.getCounterWidthBits(), 1));
      out = new Rates(s.getTs(), dtMs, tx == null ? null : tx * 8 / 1e9 / dt, wait == null ? null : wait / dt);
    }
    prevTs = s.getTs();
    prevTx = s.getXmitBytes();
    prevWait = s.getXmitWait();
    return out;
  }

  /** Increase of a raw counter of the given modulus (0: 64-bit); null when either value is missing. */
  static Double delta(Long prev, Long cur, long modulus) {
    long d = CounterDelta.delta(prev, cur, modulus, modulus / 2.0);
    return d == CounterDelta.UNKNOWN ? null : (double) d;
  }
}
