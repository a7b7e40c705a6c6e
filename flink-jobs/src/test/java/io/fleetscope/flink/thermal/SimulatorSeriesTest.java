package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.AlertChange;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The thermal model on single GPUs' 1 s series from the fleet simulator ({@code thermal/sim-1hz/}, SOURCES.md there),
 * with the default settings and the simulator's H200 limits.
 */
class SimulatorSeriesTest {
  private static final GpuThermalLimits H200 = new GpuThermalLimits(89.0, 92.0, 95.0, 700.0);

  /** Seconds after the series' first sample at which GpuThermalThrottleRisk fired, with its severity. */
  private static List<String> firings(String resource) throws IOException {
    GpuThermalMonitor m = new GpuThermalMonitor(new ThermalRiskModel(ThermalRiskSettings.defaults()));
    List<String> out = new ArrayList<>();
    long first = -1;
    for (String line : lines(resource)) {
      String[] f = line.trim().split(" ");
      long ts = Long.parseLong(f[0]);
      first = first < 0 ? ts : first;
      GpuSample s = GpuSample.newBuilder().setTs(ts).setCluster("sim").setNode("n1").setAgentSeq(ts).setGpu(0)
          .setModel("NVIDIA H200").setTempC(Double.parseDouble(f[1])).setMemTempC(60.0)
          .setPowerW(Double.parseDouble(f[2])).setPowerLimitW(Double.parseDouble(f[3]))
          .setEnergyMj(Long.parseLong(f[4])).setThrottleReasons(Long.parseLong(f[5])).build();
      for (AlertChange c : m.onSample(s, H200, CoolingContext.none(), Map.of()).changes()) {
        if (c.firing() && c.alertname().equals("GpuThermalThrottleRisk")) {
          out.add((ts - first) / 1000 + "s:" + c.severity());
        }
      }
    }
    return out;
  }

  private static List<String> lines(String resource) throws IOException {
    try (InputStream in = SimulatorSeriesTest.class.getResourceAsStream("/thermal/sim-1hz/" + resource)) {
      assertThat(in).as(resource).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }
  }

  @Test
  void aDipAndRecoveryAtSteadyLoadIsNotARunaway() throws IOException {
    // 61-63 C from the first sample: the first fits (60-70 s of samples) curve up at their end but end where they began
    assertThat(firings("wander-at-stream-start.txt")).isEmpty();
  }

  @Test
  void theRunawayStillWarnsWithinTwentySecondsOfItsFault() throws IOException {
    // the fault starts at 180 s; the trajectory's warning came at 199 s before the dip rule, and must stay there
    List<String> f = firings("thermal-runaway.txt");
    assertThat(f).isNotEmpty();
    assertThat(f.get(0)).isEqualTo("199s:warning");
  }
}
