package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RunbookPageTest {

  @Test
  void everyAlertOfTheRunbooksHasTheAnchorItsRunbookLinkNames() throws Exception {
    String page = new String(RunbookPage.html(), StandardCharsets.UTF_8);
    String md;
    try (var in = RunbookPage.class.getResourceAsStream("/console/docs/runbooks.md")) {
      md = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    var alerts = md.lines().filter(l -> l.startsWith("## ")).map(l -> l.substring(3).trim()).toList();
    assertThat(alerts).contains("CoolantFlowLow", "GpuThermalThrottleRisk").hasSizeGreaterThan(10);
    for (String alert : alerts) {
      assertThat(page).as(alert).contains("<h2 id=\"" + alert.toLowerCase(java.util.Locale.ROOT) + "\">" + alert + "</h2>");
    }
  }

  @Test
  void rawHtmlInTheMarkdownIsEscaped() {
    assertThat(RunbookPage.render("## GpuXid\n\n<script>alert(1)</script>\n"))
        .contains("<h2 id=\"gpuxid\">GpuXid</h2>").contains("&lt;script&gt;").doesNotContain("<script>");
  }
}
