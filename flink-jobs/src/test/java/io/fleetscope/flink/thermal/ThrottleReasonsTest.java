package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThrottleReasonsTest {
  /** nvidia-smi -q names of the "Clocks Event Reasons" block and their NVML bits. */
  private static final Map<String, Long> NVSMI_BITS = Map.of(
      "SW Power Cap", ThrottleReasons.SW_POWER_CAP,
      "HW Slowdown", ThrottleReasons.HW_SLOWDOWN,
      "SW Thermal Slowdown", ThrottleReasons.SW_THERMAL,
      "HW Thermal Slowdown", ThrottleReasons.HW_THERMAL,
      "HW Power Brake Slowdown", ThrottleReasons.HW_POWER_BRAKE);

  /** The bitmasks of every GPU in a real `nvidia-smi -q` capture (8x H100, power brake engaged). */
  private static List<Long> masksOfCapture() throws IOException {
    String text;
    try (InputStream in = ThrottleReasonsTest.class.getResourceAsStream(
        "/thermal/gpud-nvidia-smi-query.535.161.08.out.0.valid.txt")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Long> masks = new ArrayList<>();
    Long current = null;
    for (String line : text.split("\n")) {
      String t = line.trim();
      if (t.equals("Clocks Event Reasons")) {
        if (current != null) masks.add(current);
        current = 0L;
      } else if (current != null && t.contains(":")) {
        String name = t.substring(0, t.indexOf(':')).trim();
        String state = t.substring(t.indexOf(':') + 1).trim();
        if (NVSMI_BITS.containsKey(name) && state.equals("Active")) {
          current |= NVSMI_BITS.get(name);
        }
      } else if (current != null && !t.contains(":")) {
        masks.add(current);
        current = null;
      }
    }
    if (current != null) masks.add(current);
    return masks;
  }

  @Test
  void realCaptureWithPowerBrakeIsPowerSlowdownNotThermal() throws IOException {
    List<Long> masks = masksOfCapture();
    assertThat(masks).hasSize(8).containsOnly(0x88L);
    long m = masks.get(0);
    assertThat(ThrottleReasons.power(m)).isTrue();
    assertThat(ThrottleReasons.hwSlowdown(m)).isTrue();
    assertThat(ThrottleReasons.thermal(m)).isFalse();
    assertThat(ThrottleReasons.names(m)).containsExactly("hw_power_brake", "hw_slowdown");
  }

  @Test
  void idleAndApplicationClockBitsAreNoSlowdown() {
    assertThat(ThrottleReasons.slowdown(0x1L | 0x2L | 0x10L | 0x100L)).isFalse();
    assertThat(ThrottleReasons.slowdown(null)).isFalse();
    assertThat(ThrottleReasons.thermal(ThrottleReasons.SW_THERMAL)).isTrue();
  }
}
