package io.fleetscope.flink.thermal;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.PduReading;

/** Builders of raw records for thermal/facility tests; times are fixed instants. */
final class Samples {
  /** 2026-01-01T00:00:00Z. */
  static final long T0 = 1_767_225_600_000L;

  private Samples() {}

  static long t(double seconds) {
    return T0 + Math.round(seconds * 1000);
  }

  static GpuSample.Builder gpu(double atS, double tempC) {
    return GpuSample.newBuilder().setTs(t(atS)).setCluster("c1").setNode("n1").setAgentSeq((long) atS).setGpu(0)
        .setModel("NVIDIA H100 80GB HBM3").setTempC(tempC).setMemTempC(60.0).setPowerW(450.0).setPowerLimitW(700.0)
        .setThrottleReasons(0L);
  }

  static CoolantReading.Builder coolant(double atS) {
    return CoolantReading.newBuilder().setTs(t(atS)).setCluster("c1").setDevice("cdu-1").setAgentSeq((long) atS)
        .setLoop("loop-a").setSupplyTempC(30.0).setReturnTempC(38.0).setFlowLpm(120.0).setLeakDetected(false);
  }

  static PduReading.Builder pdu(double atS, String device, String outlet, double watts) {
    return PduReading.newBuilder().setTs(t(atS)).setCluster("c1").setDevice(device).setAgentSeq((long) atS)
        .setOutlet(outlet).setPowerW(watts);
  }

  /**
   * One line of a simulator series ({@code thermal/sim-1hz/}, SOURCES.md there: {@code ts_ms temp_c power_w
   * power_limit_w energy_mj throttle_reasons}) as the H200's GPU sample.
   */
  static GpuSample simulatorLine(String line) {
    String[] f = line.trim().split(" ");
    long ts = Long.parseLong(f[0]);
    return GpuSample.newBuilder().setTs(ts).setCluster("sim").setNode("n1").setAgentSeq(ts).setGpu(0)
        .setModel("NVIDIA H200").setTempC(Double.parseDouble(f[1])).setMemTempC(60.0)
        .setPowerW(Double.parseDouble(f[2])).setPowerLimitW(Double.parseDouble(f[3]))
        .setEnergyMj(Long.parseLong(f[4])).setThrottleReasons(Long.parseLong(f[5])).build();
  }

  /** Limits of the simulator's H200: slowdown 89 C, power limit 700 W. */
  static GpuThermalLimits simulatorH200() {
    return new GpuThermalLimits(89.0, 92.0, 95.0, 700.0);
  }

  /** Limits of an H100 SXM as NVIDIA publishes them. */
  static GpuThermalLimits h100() {
    return new GpuThermalLimits(87.0, 92.0, 95.0, 700.0);
  }
}
