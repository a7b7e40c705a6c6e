package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class AlertTextTest {

  @Test
  void describesAnAlertmanagerAlertByNameSeverityPlaceAndSummary() throws Exception {
    // one alert of Alertmanager's GET /api/v2/alerts during a local run (labels and annotations as sent)
    String json = "{\"annotations\":{\"runbook_url\":\"docs/runbooks.md#gputhermalthrottlerisk\","
        + "\"summary\":\"Thermal throttle risk warning on gpu-0007 GPU 0 (gpu_temp)\"},"
        + "\"fingerprint\":\"086217ab8da528e3\",\"labels\":{\"alertname\":\"GpuThermalThrottleRisk\",\"cluster\":\"sim\","
        + "\"driver\":\"gpu_temp\",\"gpu\":\"0\",\"loop\":\"loop-02\",\"model\":\"NVIDIA H200\",\"node\":\"gpu-0007\","
        + "\"rack\":\"rack-002\",\"severity\":\"warning\"}}";
    assertThat(AlertText.describe(new ObjectMapper().readTree(json))).isEqualTo(
        "GpuThermalThrottleRisk severity=warning cluster=sim rack=rack-002 loop=loop-02 node=gpu-0007 gpu=0"
            + " summary=\"Thermal throttle risk warning on gpu-0007 GPU 0 (gpu_temp)\"");
  }

  @Test
  void marksMissingNameAndSeverity() throws Exception {
    assertThat(AlertText.describe(new ObjectMapper().readTree("{\"labels\":{\"rail\":\"3\"}}")))
        .isEqualTo("? severity=? rail=3");
  }
}
