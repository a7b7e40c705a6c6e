package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.PduReading;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RecordValidatorTest {
  private static final long NOW = 1_764_680_000_000L;
  private final RecordValidator validator = new RecordValidator(1_500_000_000_000L, 300_000);

  static GpuSample gpu(Consumer<GpuSample> change) {
    GpuSample s = GpuSample.newBuilder().setTs(NOW - 1000).setCluster("c1").setNode("node-a").setAgentSeq(7).setGpu(3)
        .setTempC(61.5).setMemTempC(70.0).setPowerW(650.0).setUtilPct(100.0).setEccSbeTotal(12L).setThrottleReasons(0L).build();
    change.accept(s);
    return s;
  }

  static IbPortSample ib(Consumer<IbPortSample> change) {
    IbPortSample s = IbPortSample.newBuilder().setTs(NOW).setCluster("c1").setNode("node-a").setAgentSeq(1).setDevice("mlx5_0")
        .setPort(1).setXmitBytes(1L << 40).setSymbolErrors(0L).build();
    change.accept(s);
    return s;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("valid GPU sample", gpu(s -> {}), null),
        Arguments.of("valid IB sample", ib(s -> {}), null),
        Arguments.of("boundary temperatures", gpu(s -> { s.setTempC(200.0); s.setMemTempC(-60.0); }), null),
        Arguments.of("hot", gpu(s -> s.setTempC(200.5)), "impossible temp_c=200.5 (allowed -60..200 C)"),
        Arguments.of("cold", gpu(s -> s.setMemTempC(-61.0)), "impossible mem_temp_c=-61.0 (allowed -60..200 C)"),
        Arguments.of("NaN", gpu(s -> s.setPowerW(Double.NaN)), "power_w is NaN"),
        Arguments.of("infinite", gpu(s -> s.setTempC(Double.POSITIVE_INFINITY)), "temp_c is Infinity"),
        Arguments.of("percent", gpu(s -> s.setUtilPct(100.6)), "impossible util_pct=100.6 (allowed 0..100)"),
        Arguments.of("negative long counter", gpu(s -> s.setEccSbeTotal(-1L)), "negative ecc_sbe_total=-1"),
        Arguments.of("negative int", gpu(s -> s.setGpu(-2)), "negative gpu=-2"),
        Arguments.of("negative bytes", ib(s -> s.setXmitBytes(-5L)), "negative xmit_bytes=-5"),
        Arguments.of("negative watts", gpu(s -> s.setPowerW(-0.5)), "negative power_w=-0.5"),
        Arguments.of("too old", gpu(s -> s.setTs(5L)), "impossible ts=5 (before min_valid_ts_ms=1500000000000)"),
        Arguments.of("future", gpu(s -> s.setTs(NOW + 300_001)), "ts=" + (NOW + 300_001) + " is 300001 ms in the future (max_future_ms=300000)"),
        Arguments.of("just inside the future bound", gpu(s -> s.setTs(NOW + 300_000)), null),
        Arguments.of("empty node", gpu(s -> s.setNode(" ")), "empty node"),
        Arguments.of("empty device", PduReading.newBuilder().setTs(NOW).setCluster("c1").setDevice("").setAgentSeq(1).build(),
            "empty device"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void findsTheFirstImpossibleValue(String name, SpecificRecord r, String reason) {
    assertThat(validator.check(r, NOW)).isEqualTo(reason);
  }
}
