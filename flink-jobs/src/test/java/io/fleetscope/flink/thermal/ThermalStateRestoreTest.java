package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A GPU's thermal monitor saved by the version that landed in the seventh session (commit fbe9b84) restores (Java
 * serialization, as {@code JavaSerializableTypeInfo} writes the thermal stage's state into a savepoint) and goes on
 * where it stopped. {@code state/thermal-monitor-runaway.b64} holds one GpuThermalMonitor fed the first 202 s of
 * {@code thermal/sim-1hz/thermal-runaway.txt}: its GpuThermalThrottleRisk warning fired at 199 s and is firing.
 */
class ThermalStateRestoreTest {
  @Test
  void aMonitorOfTheLandedVersionRestoresWithItsWarningFiring() throws Exception {
    GpuThermalMonitor m;
    try (InputStream in = getClass().getResourceAsStream("/state/thermal-monitor-runaway.b64")) {
      byte[] bytes = Base64.getMimeDecoder().decode(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
      try (ObjectInputStream o = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
        m = (GpuThermalMonitor) o.readObject();
      }
    }
    assertThat(m.anyFiring()).isTrue();
    // the series' next second (203 s): the trajectory still calls a warning; the restored alert fires on, not again
    GpuSample s = Samples.simulatorLine(SimulatorSeriesTest.lines("thermal-runaway.txt").get(203));
    GpuThermalMonitor.Outcome o = m.onSample(s, Samples.simulatorH200(), CoolingContext.none(), Map.of());
    assertThat(o.assessment().level()).isEqualTo("warning");
    assertThat(o.changes()).as("no second firing of the restored warning").isEmpty();
    assertThat(m.anyFiring()).isTrue();
  }
}
