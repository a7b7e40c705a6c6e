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
  void wrapOf32BitCounterAndReset() {
    assertThat(PortRateCalculator.delta(4_294_967_000L, 200L)).isEqualTo(496.0);
    assertThat(PortRateCalculator.delta(10_000_000_000L, 5L)).as("64-bit counter went down: reset").isEqualTo(5.0);
    assertThat(PortRateCalculator.delta(1_000_000_000L, 5L)).as("wrapped delta would be above 2^31: reset").isEqualTo(5.0);
    assertThat(PortRateCalculator.delta(null, 5L)).isNull();
  }

  @Test
  void staleOrRepeatedSampleYieldsNothing() {
    PortRateCalculator c = new PortRateCalculator();
    c.onSample(s(10_000, 0L, 0L));
    assertThat(c.onSample(s(10_000, 5L, 0L))).isNull();
    assertThat(c.onSample(s(5_000, 5L, 0L))).isNull();
  }
}
