package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The example deploy/alertmanager/alertmanager.yml, checked by Alertmanager's own amtool. */
class AlertmanagerConfigIT {
  static final Path CONFIG = Path.of("..", "deploy", "alertmanager", "alertmanager.yml");
  private static final Path AMTOOL = Path.of("/usr/bin/amtool");

  @Test
  void exampleConfigIsValid() throws Exception {
    Result r = amtool("check-config", CONFIG.toString());
    assertThat(r.rc).as(r.out).isZero();
    assertThat(r.out).contains("SUCCESS").contains("1 inhibit rules").contains("3 receivers");
  }

  @Test
  void criticalPagesWarningTicketsInfoIsRecordedOnly() throws Exception {
    assertThat(route("severity=critical", "alertname=CoolantFlowLow", "cluster=c1", "rack=r07")).isEqualTo("pager");
    assertThat(route("severity=warning", "alertname=GpuThermalThrottleRisk", "cluster=c1")).isEqualTo("ticket");
    assertThat(route("severity=info", "alertname=TelemetryStale")).isEqualTo("blackhole");
    assertThat(route("alertname=NoSeverity")).isEqualTo("ticket");
  }

  @Test
  void groupsByClusterAndRackAndInhibitsGpuAlertsUnderARackIncident() throws IOException {
    String yml = Files.readString(CONFIG);
    assertThat(yml).contains("group_by: [cluster, rack]")
        .contains("- scope=~\"rack|cdu_loop\"").contains("- gpu=~\".+\"").contains("equal: [cluster, rack]");
  }

  private String route(String... labels) throws Exception {
    List<String> args = new ArrayList<>(List.of("config", "routes", "test", "--config.file=" + CONFIG));
    args.addAll(List.of(labels));
    Result r = amtool(args.toArray(String[]::new));
    assertThat(r.rc).as(r.out).isZero();
    String[] lines = r.out.strip().split("\n");
    return lines[0].strip();
  }

  private record Result(int rc, String out) {}

  private static Result amtool(String... args) throws Exception {
    assertThat(AMTOOL).as("amtool (Debian package prometheus-alertmanager) must be installed: deploy/local/install.sh")
        .isExecutable();
    List<String> cmd = new ArrayList<>();
    cmd.add(AMTOOL.toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), out + (err.isBlank() ? "" : "\n[stderr] " + err));
  }
}
