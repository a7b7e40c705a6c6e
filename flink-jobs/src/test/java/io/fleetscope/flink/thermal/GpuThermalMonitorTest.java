package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.thermal.Samples.gpu;
import static io.fleetscope.flink.thermal.Samples.h100;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.flink.core.AlertChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuThermalMonitorTest {
  private final Map<String, String> labels = Map.of("cluster", "c1", "node", "n1", "gpu", "0");
  private final CoolingContext cooling = CoolingContext.none();

  private GpuThermalMonitor monitor() {
    return new GpuThermalMonitor(new ThermalRiskModel(ThermalRiskSettings.defaults()));
  }

  @Test
  void healthyGpuNeverAlerts() {
    GpuThermalMonitor m = monitor();
    List<AlertChange> all = new ArrayList<>();
    for (int i = 0; i < 360; i++) { // one hour, every 10 s, 60-62 C noise
      all.addAll(m.onSample(gpu(i * 10, 60 + (i % 3)).build(), h100(), cooling, labels).changes());
    }
    assertThat(all).isEmpty();
  }

  @Test
  void rampFiresWarningThenCriticalThenResolvesOnCooling() {
    GpuThermalMonitor m = monitor();
    List<AlertChange> all = new ArrayList<>();
    List<Double> fireTimes = new ArrayList<>();
    double s = 0;
    for (; s < 600; s += 10) { // flat at 60 C for 10 minutes
      all.addAll(m.onSample(gpu(s, 60).build(), h100(), cooling, labels).changes());
    }
    assertThat(all).isEmpty();
    // from t=600 s the temperature rises 3 C per minute (0.5 C per 10 s) towards 87 C
    double temp = 60;
    for (; s < 1200; s += 10) {
      temp += 0.5;
      for (AlertChange c : m.onSample(gpu(s, temp).build(), h100(), cooling, labels).changes()) {
        all.add(c);
        fireTimes.add(s);
      }
    }
    assertThat(all).extracting(AlertChange::alertname).containsOnly("GpuThermalThrottleRisk");
    assertThat(all.get(0).firing()).isTrue();
    assertThat(all.get(0).severity()).isEqualTo("warning");
    assertThat(all.get(0).labels()).containsEntry("driver", "gpu_temp").containsEntry("node", "n1");
    // a steady 3 C/min rise reaches a trend risk of 0.6 when 360 s (18 C) from slowdown, i.e. at 69 C:
    // 18 steps of 0.5 C after t=600, and the slope needs 30 s of rise to be trusted.
    assertThat(fireTimes.get(0)).isBetween(600.0 + 170, 600.0 + 240);
    // the severity changes to critical: the warning resolves, the critical fires, at the same sample
    assertThat(all).extracting(c -> c.severity() + ":" + c.firing())
        .containsSubsequence("warning:true", "warning:false", "critical:true");
    // then the GPU cools back to 60 C and stays there
    List<AlertChange> recovery = new ArrayList<>();
    for (; s < 2400; s += 10) {
      temp = Math.max(60, temp - 1);
      recovery.addAll(m.onSample(gpu(s, temp).build(), h100(), cooling, labels).changes());
    }
    assertThat(recovery).isNotEmpty();
    assertThat(recovery.get(recovery.size() - 1).firing()).isFalse();
    assertThat(m.anyFiring()).isFalse();
  }

  @Test
  void throttleBitsFireAndResolveGpuThrottling() {
    GpuThermalMonitor m = monitor();
    assertThat(m.onSample(gpu(0, 60).build(), h100(), cooling, labels).changes()).isEmpty();
    List<AlertChange> on = m.onSample(gpu(10, 60).setThrottleReasons(0x88L).build(), h100(), cooling, labels).changes();
    assertThat(on).extracting(AlertChange::alertname, AlertChange::severity, AlertChange::firing)
        .contains(org.assertj.core.groups.Tuple.tuple("GpuThrottling", "critical", true));
    assertThat(on.stream().filter(c -> c.alertname().equals("GpuThrottling")).findFirst().orElseThrow().description())
        .contains("hw_power_brake");
    assertThat(m.onSample(gpu(20, 60).setThrottleReasons(0x88L).build(), h100(), cooling, labels).changes()).isEmpty();
    List<AlertChange> off = m.onSample(gpu(30, 60).build(), h100(), cooling, labels).changes();
    assertThat(off).extracting(AlertChange::alertname, AlertChange::firing)
        .contains(org.assertj.core.groups.Tuple.tuple("GpuThrottling", false));
  }

  @Test
  void swPowerCapIsAWarningThrottle() {
    GpuThermalMonitor m = monitor();
    List<AlertChange> on = m.onSample(gpu(0, 60).setThrottleReasons(ThrottleReasons.SW_POWER_CAP).build(), h100(),
        cooling, labels).changes();
    assertThat(on).filteredOn(c -> c.alertname().equals("GpuThrottling")).singleElement()
        .extracting(AlertChange::severity).isEqualTo("warning");
  }
}
