package io.fleetscope.flink.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetscope.avro.IbPortSample;
import org.junit.jupiter.api.Test;

class PortRateCalculatorTest {
  private static IbPortSample s(long ts, Long tx, Long wait) {
    return IbPortSample.newBuilder().setTs(ts).setCluster("c1").setNode("n1").setAgentSeq(ts).setDevice("mlx5_0")
        .setPort(1).setXmitBytes(tx).setXmitWait(wait).build();
  }

  @Test
  void rateFromDeltas() {
    PortRateCalculator c = new PortRateCalculator();
    assertThat(c.onSample(s(0, 0L, 0L))).isNull();
    PortRateCalculator.Rates r = c.onSample(s(10_000, 500_000_000_000L, 20_000L));
    assertThat(r.txGbps()).isCloseTo(400.0, within(1e-9)); // 50 GB/s = 400 Gb/s
    assertThat(r.xmitWaitPerS()).isCloseTo(2000.0, within(1e-9));
  }

  @Test
  void wrapOfANarrowCounterAndReset() {
    long m32 = 1L << 32;
    assertThat(PortRateCalculator.delta(4_294_967_000L, 200L, m32)).isEqualTo(496.0);
    assertThat(PortRateCalculator.delta(4_294_967_000L, 200L, 0)).as("64-bit counter went down: reset").isEqualTo(200.0);
    assertThat(PortRateCalculator.delta(1_000_000_000L, 5L, m32)).as("wrapped delta would be above half the range: reset")
        .isEqualTo(5.0);
    assertThat(PortRateCalculator.delta(null, 5L, 0)).isNull();
  }

  @Test
  void wordCounterConvertedToBytesWrapsAtFourTimesTwoToTheWidth() {
    PortRateCalculator c = new PortRateCalculator();
    long mod = 4L << 32; // a 32-bit PortXmitData counts 4-octet words: the byte counter wraps at 2^34
    c.onSample(IbPortSample.newBuilder(s(0, mod - 1_000_000_000L, 0L)).setCounterWidthBits(32).build());
    PortRateCalculator.Rates r = c.onSample(IbPortSample.newBuilder(s(10_000, 4_000_000_000L, 0L)).setCounterWidthBits(32).build());
    assertThat(r.txGbps()).isCloseTo(5e9 * 8 / 1e9 / 10, within(1e-9)); // 5 GB in 10 s = 4 Gb/s
  }

  @Test
  void staleOrRepeatedSampleYieldsNothing() {
    PortRateCalculator c = new PortRateCalculator();
    c.onSample(s(10_000, 0L, 0L));
    assertThat(c.onSample(s(10_000, 5L, 0L))).isNull();
    assertThat(c.onSample(s(5_000, 5L, 0L))).isNull();
  }
}
