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
    for (; s < 600; s += 2) { // flat at 60 C for 10 minutes, a sample every 2 s
      all.addAll(m.onSample(gpu(s, 60).build(), h100(), cooling, labels).changes());
    }
    assertThat(all).isEmpty();
    // from t=600 s the temperature rises 3 C per minute (0.1 C per 2 s) towards 87 C at the same power
    double temp = 60;
    for (; s < 1200; s += 2) {
      temp += 0.1;
      for (AlertChange c : m.onSample(gpu(s, temp).build(), h100(), cooling, labels).changes()) {
        all.add(c);
        fireTimes.add(s);
      }
    }
    assertThat(all).extracting(AlertChange::alertname).containsOnly("GpuThermalThrottleRisk");
    assertThat(all.get(0).firing()).isTrue();
    assertThat(all.get(0).severity()).isEqualTo("warning");
    assertThat(all.get(0).labels()).containsEntry("driver", "gpu_temp").containsEntry("node", "n1");
    // a steady rise at the same power that does not level off reaches slowdown (87 C) 540 s after t=600; it is
    // called once the window shows it (flat, then rising: accelerating), long before
    assertThat(fireTimes.get(0)).isBetween(600.0 + 30, 600.0 + 300);
    // the severity goes up to critical (the warning resolves, the critical fires, at the same sample), never down
    assertThat(all).extracting(c -> c.severity() + ":" + c.firing())
        .containsExactly("warning:true", "warning:false", "critical:true");
    // then the GPU cools back to 60 C and stays there: the critical resolves, once, after the hold time
    List<AlertChange> recovery = new ArrayList<>();
    for (; s < 2400; s += 2) {
      temp = Math.max(60, temp - 0.2);
      recovery.addAll(m.onSample(gpu(s, temp).build(), h100(), cooling, labels).changes());
    }
    assertThat(recovery).extracting(c -> c.severity() + ":" + c.firing()).containsExactly("critical:false");
    assertThat(m.anyFiring()).isFalse();
  }

  @Test
  void throttleBitsFireAndResolveGpuThrottlingAfterTheHoldTime() {
    GpuThermalMonitor m = monitor();
    assertThat(m.onSample(gpu(0, 60).build(), h100(), cooling, labels).changes()).isEmpty();
    List<AlertChange> on = m.onSample(gpu(10, 60).setThrottleReasons(0x88L).build(), h100(), cooling, labels).changes();
    assertThat(on).extracting(AlertChange::alertname, AlertChange::severity, AlertChange::firing)
        .contains(org.assertj.core.groups.Tuple.tuple("GpuThrottling", "critical", true));
    assertThat(on.stream().filter(c -> c.alertname().equals("GpuThrottling")).findFirst().orElseThrow().description())
        .contains("hw_power_brake");
    assertThat(m.onSample(gpu(20, 60).setThrottleReasons(0x88L).build(), h100(), cooling, labels).changes()).isEmpty();
    // clear from t=30: still firing at t=80 (50 s), resolved at t=90 (60 s, throttle_resolve_hold_s)
    for (int t = 30; t <= 80; t += 10) {
      assertThat(m.onSample(gpu(t, 60).build(), h100(), cooling, labels).changes()).isEmpty();
    }
    List<AlertChange> off = m.onSample(gpu(90, 60).build(), h100(), cooling, labels).changes();
    assertThat(off).filteredOn(c -> c.alertname().equals("GpuThrottling")).extracting(AlertChange::firing)
        .containsExactly(false);
  }

  @Test
  void throttleBitFlappingEverySampleIsOneAlert() {
    GpuThermalMonitor m = monitor();
    List<AlertChange> all = new ArrayList<>();
    for (int t = 0; t < 600; t++) { // SW thermal slowdown on every other second for ten minutes
      long bits = t % 2 == 0 ? ThrottleReasons.SW_THERMAL : 0L;
      all.addAll(m.onSample(gpu(t, 80).setThrottleReasons(bits).build(), h100(), cooling, labels).changes());
    }
    for (int t = 600; t < 700; t++) {
      all.addAll(m.onSample(gpu(t, 80).build(), h100(), cooling, labels).changes());
    }
    assertThat(all).filteredOn(c -> c.alertname().equals("GpuThrottling"))
        .extracting(c -> c.severity() + ":" + c.firing()).containsExactly("warning:true", "warning:false");
  }

  @Test
  void scoreHoveringAtTheWarningThresholdIsOneAlert() {
    // 85 C flat, 2 C below slowdown: headroom risk 0.6 = warning; readings of 84 (0.4) now and then
    GpuThermalMonitor m = monitor();
    List<AlertChange> all = new ArrayList<>();
    for (int t = 0; t < 1800; t++) {
      double temp = t % 7 == 3 ? 84 : (t % 5 == 0 ? 84.5 : 85);
      all.addAll(m.onSample(gpu(t, temp).build(), h100(), cooling, labels).changes());
    }
    assertThat(all).extracting(c -> c.alertname() + ":" + c.severity() + ":" + c.firing())
        .containsExactly("GpuThermalThrottleRisk:warning:true");
  }

  @Test
  void scoreHoveringAtTheCriticalThresholdDoesNotFlapSeverity() {
    // 86.2-86.3 C: headroom risk about 0.85 (critical) and just below it (warning), alternating
    GpuThermalMonitor m = monitor();
    List<AlertChange> all = new ArrayList<>();
    for (int t = 0; t < 1200; t++) {
      all.addAll(m.onSample(gpu(t, t % 3 == 0 ? 86.3 : 86.2).build(), h100(), cooling, labels).changes());
    }
    assertThat(all).extracting(c -> c.severity() + ":" + c.firing()).containsExactly("critical:true");
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
