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
  /** Seconds after the series' first sample at which GpuThermalThrottleRisk fired, with its severity. */
  private static List<String> firings(String resource) throws IOException {
    GpuThermalMonitor m = new GpuThermalMonitor(new ThermalRiskModel(ThermalRiskSettings.defaults()));
    List<String> out = new ArrayList<>();
    long first = -1;
    for (String line : lines(resource)) {
      GpuSample s = Samples.simulatorLine(line);
      long ts = s.getTs();
      first = first < 0 ? ts : first;
      for (AlertChange c : m.onSample(s, Samples.simulatorH200(), CoolingContext.none(), Map.of()).changes()) {
        if (c.firing() && c.alertname().equals("GpuThermalThrottleRisk")) {
          out.add((ts - first) / 1000 + "s:" + c.severity());
        }
      }
    }
    return out;
  }

  static List<String> lines(String resource) throws IOException {
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
