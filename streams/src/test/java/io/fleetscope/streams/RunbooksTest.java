package io.fleetscope.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every alertname that can reach on-call has its runbook section, at the anchor runbook_url points to. */
class RunbooksTest {
  /** The alert names of ARCHITECTURE.md ("Names that other parts rely on"). */
  static final List<String> ARCHITECTURE_ALERTNAMES = List.of("GpuEccUncorrectable", "GpuEccCorrectableRising",
      "GpuRowRemapFailure", "GpuXid", "GpuThermalThrottleRisk", "GpuThrottling", "IbLinkDown", "IbLinkDegraded",
      "IbSymbolErrors", "RailImbalance", "RoceCongestion", "RackPowerOverCooling", "CoolantFlowLow", "CoolantSupplyHot",
      "CoolantLeak", "CheckpointSlow", "CheckpointSloBurn", "GpuPeerOutlier", "LinkPeerOutlier", "JobMixedGpuModels",
      "TelemetryStale",
      // storage tiers (issue 27)
      "StorageTierDegraded", "NvmeMediaErrors",
      // NVLink (issue 27)
      "NvlinkDown", "NvlinkErrorsRising");

  @Test
  void everyAlertnameHasASectionWithItsAnchor() throws Exception {
    String md = Files.readString(Path.of("..", "docs", "runbooks.md"));
    List<String> names = new ArrayList<>(ARCHITECTURE_ALERTNAMES);
    names.add(CorrelatorConfig.defaults().railAlertname()); // the correlator's own rail incident
    names.add("FabricConfigDrift"); // issue 27: lossless-fabric configuration audit
    for (String n : names) {
      assertThat(md).as("runbook section for %s", n).contains("\n## " + n + "\n<a id=\"" + n.toLowerCase() + "\"></a>\n");
    }
    assertThat(md.split("\n## ", -1)).hasSize(names.size() + 1);
  }
}
