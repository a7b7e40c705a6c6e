package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console end to end in Debian's headless Chromium: a console on a free port over a database
 * holding {@link FleetScenario} at 1,000 nodes. The heatmap renders a cell per GPU, the incident
 * appears and its blast radius is drawn on the heatmap, a click on a GPU opens its page with its
 * charts, and the other pages render. Screenshots are saved under target/console-e2e/.
 */
class ConsoleBrowserIT {
  static final Path OUT = Path.of("target", "console-e2e");
  static final Duration WAIT = Duration.ofSeconds(30);
  static FleetScenario fleet;
  static ConsoleServer console;
  static DevTools chrome;

  @BeforeAll
  static void start() throws Exception {
    Files.createDirectories(OUT);
    fleet = new FleetScenario("console_browser_it", 10, 10, 10).write();
    console = new ConsoleServer(fleet.consoleConfig()).start();
    chrome = DevTools.launch(OUT.resolve("chromium.log"), 1600, 1300);
  }

  @AfterAll
  static void stop() throws Exception {
    if (chrome != null) {
      chrome.close();
    }
    if (console != null) {
      console.close();
    }
  }

  @Test
  void heatmapIncidentAndAClickIntoAGpuWithItsCharts() throws Exception {
    long t0 = System.nanoTime();
    chrome.navigate(console.url() + "/#/");
    chrome.await("the fleet page loaded", "document.body.dataset.loaded === '#/'", WAIT);
    long loadedMs = (System.nanoTime() - t0) / 1_000_000;
    // the heatmap's DOM built and laid out (the measure covers building it; the layout follows in the same task)
    double drawMs = chrome.eval("performance.getEntriesByName('heatmap-draw')[0].duration").asDouble();
    System.out.printf("console-e2e fleet page gpus=8000 loaded_ms=%d heatmap_draw_ms=%.0f%n", loadedMs, drawMs);
    assertThat(drawMs).as("drawing 8,000 cells").isLessThan(2000);
    assertThat(chrome.eval("document.querySelectorAll('#heatmap .cell[data-n]').length").asInt()).isEqualTo(8000);
    assertThat(chrome.eval("document.querySelectorAll('#heatmap .rack').length").asInt()).isEqualTo(100);
    assertThat(chrome.eval("document.querySelectorAll('#heatmap .cell.l2').length").asInt()).as("the hot GPU, headroom 4 °C")
        .isEqualTo(1);
    assertThat(chrome.eval("document.getElementById('incidents').innerText").asText())
        .contains("CoolantFlowLow").contains("8 GPUs on 1 nodes");
    assertThat(chrome.eval("document.querySelector('#summary').innerText").asText()).contains("8000");

    // the incident's blast radius drawn on the heatmap
    chrome.click("#incidents tr.pick td");
    chrome.await("the blast radius drawn", "document.querySelectorAll('#heatmap .cell.br').length === 8", WAIT);
    assertThat(chrome.eval("[...document.querySelectorAll('#heatmap .cell.br')].every(c => c.dataset.n === '"
        + FleetScenario.HOT_NODE + "')").asBoolean()).isTrue();
    chrome.eval("window.scrollTo(0, 0)");
    chrome.screenshot(OUT.resolve("fleet-heatmap.png"));

    // live refresh without reload: the metric switch redraws in place
    chrome.eval("window.__sameDocument = true");
    chrome.click("input[name=metric][value=risk]");
    chrome.await("the risk heatmap", "document.querySelectorAll('#heatmap .cell.l3').length === 1", WAIT);
    assertThat(chrome.eval("window.__sameDocument === true").asBoolean()).isTrue();

    // a click on the hot GPU's cell opens its page with its charts
    chrome.click("#heatmap .cell[data-n='" + FleetScenario.HOT_NODE + "'][data-g='" + FleetScenario.HOT_GPU + "']");
    String gpuHash = "#/gpu/" + FleetScenario.HOT_NODE + "/" + FleetScenario.HOT_GPU;
    chrome.await("the GPU page loaded", "document.body.dataset.loaded === '" + gpuHash + "'", WAIT);
    assertThat(chrome.eval("document.getElementById('gtitle').textContent").asText())
        .isEqualTo(FleetScenario.HOT_NODE + " GPU " + FleetScenario.HOT_GPU);
    assertThat(chrome.eval("document.querySelectorAll('.uplot canvas').length").asInt()).as("temperature, power, clocks, throttle, ECC")
        .isEqualTo(5);
    assertThat(chrome.eval("document.getElementById('ganom').innerText").asText()).contains("GpuThermalThrottleRisk");
    assertThat(chrome.eval("document.getElementById('ginfo').innerText").asText()).contains("hw_thermal").contains("r00-k00");
    assertThat(chrome.eval("document.querySelector('#updated time').title").asText()).startsWith("local: ");
    chrome.eval("window.scrollTo(0, 0)");
    chrome.screenshot(OUT.resolve("gpu-page.png"));
    chrome.click("input[name=range][value='24h']");
    chrome.await("the GPU over 24 hours from the 1-minute rollup", "document.getElementById('rmeta').innerText.startsWith('from minute')", WAIT);
    assertThat(chrome.eval("window.__sameDocument === true").asBoolean()).isTrue();

    chrome.navigate(console.url() + "/#/incident/" + FleetScenario.INCIDENT);
    chrome.await("the incident page", "document.body.dataset.loaded === '#/incident/" + FleetScenario.INCIDENT + "'", WAIT);
    assertThat(chrome.eval("document.querySelectorAll('#itime tr').length - 1").asInt()).isEqualTo(4);
    assertThat(chrome.eval("document.getElementById('itime').innerText").asText()).contains("member joined")
        .contains("notified (version 2)");
    assertThat(chrome.eval("document.querySelector('#ihead a[href*=runbook]').href").asText()).endsWith("#coolantflowlow");
    chrome.eval("window.scrollTo(0, 0)");
    chrome.screenshot(OUT.resolve("incident.png"));
    chrome.click("#ihead a[href*=runbook]");
    chrome.await("the runbook opened at the alert's section", "location.pathname === '/docs/runbooks.md'"
        + " && location.hash === '#coolantflowlow' && document.getElementById('coolantflowlow') !== null", WAIT);

    chrome.navigate(console.url() + "/#/incidents");
    chrome.await("the incidents page", "document.body.dataset.loaded === '#/incidents'", WAIT);
    assertThat(chrome.eval("document.querySelectorAll('#ilist tr').length - 1").asInt()).isEqualTo(2);
    chrome.click("#ilist a[href*='" + FleetScenario.EARLIER_INCIDENT + "']");
    chrome.await("the earlier incident's timeline", "document.body.dataset.loaded === '#/incident/" + FleetScenario.EARLIER_INCIDENT + "'",
        WAIT);
    assertThat(chrome.eval("document.getElementById('itime').innerText").asText()).contains("member resolved")
        .contains("incident resolved (notified, version 2)");
    assertThat(chrome.eval("document.getElementById('ihead').innerText").asText()).contains("ended");

    chrome.navigate(console.url() + "/#/rails");
    chrome.await("the rails page", "document.body.dataset.loaded === '#/rails'", WAIT);
    assertThat(chrome.eval("document.querySelectorAll('.uplot canvas').length").asInt()).isEqualTo(3);
    assertThat(chrome.eval("document.getElementById('rnow').innerText").asText()).contains("7/8").contains("mlx5_2");
    // NVLink per node next to the rails: the dcgm-exporter node (20 Gbit/s tx) above the nvidia-smi one (16)
    assertThat(chrome.eval("document.getElementById('rnvlink').innerText").asText())
        .containsSubsequence(FleetScenario.NVLINK_DCGM_NODE + "\t20.0\t10.0", FleetScenario.NVLINK_SMI_NODE + "\t16.0\t8.0");
    chrome.eval("window.scrollTo(0, 0)");
    chrome.screenshot(OUT.resolve("rails.png"));

    chrome.navigate(console.url() + "/#/checkpoints");
    chrome.await("the checkpoints page", "document.body.dataset.loaded === '#/checkpoints'", WAIT);
    // the job's 12 checkpoints span the last hour: 6 hours shows them all, 9 of them within the SLO
    chrome.click("input[name=range][value='6h']");
    chrome.await("the checkpoints of 6 hours", "document.getElementById('cjobs').innerText.includes('75%')", WAIT);
    assertThat(chrome.eval("document.getElementById('cjobs').innerText").asText()).contains(FleetScenario.JOB).contains("\t12\t")
        .contains("30.0 min");
    assertThat(chrome.eval("document.querySelectorAll('.uplot canvas').length").asInt()).isEqualTo(1);
    chrome.eval("window.scrollTo(0, 0)");
    chrome.screenshot(OUT.resolve("checkpoints.png"));

    assertThat(chrome.pageErrors).as("exceptions thrown in the page").isEmpty();
  }
}
