package io.fleetscope.cli;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.AnalyzeMain;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.streams.CorrelatorConfig;
import io.fleetscope.streams.OfflineCorrelator;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@code analyze}'s follow-up on a bundle: the correlator ({@link OfflineCorrelator}, default
 * settings) over the anomalies the analytics produced, with the bundle's inventory; its incident
 * versions become fleet.alerts.v1 lines of the output.
 */
final class BundleIncidents implements AnalyzeMain.Followup {
  private final CorrelatorConfig config;
  private OfflineCorrelator.Result last;

  BundleIncidents(CorrelatorConfig config) {
    this.config = config;
  }

  @Override
  public List<JsonLines.Line> after(List<SpecificRecord> inputs, List<JsonLines.Line> produced) {
    last = correlate(config, inputs, produced);
    List<JsonLines.Line> out = new ArrayList<>();
    for (Alert a : last.versions()) {
      out.add(new JsonLines.Line(Topics.ALERTS, a.getFingerprint(), a));
    }
    return out;
  }

  /** The result of the last run (versions and notifications), null before one. */
  OfflineCorrelator.Result last() {
    return last;
  }

  static OfflineCorrelator.Result correlate(CorrelatorConfig config, List<SpecificRecord> inputs, List<JsonLines.Line> produced) {
    List<InventoryRecord> inventory = inputs.stream().filter(r -> r instanceof InventoryRecord).map(r -> (InventoryRecord) r)
        .toList();
    List<Anomaly> anomalies = produced.stream().filter(l -> Topics.ANOMALIES.equals(l.topic())).map(l -> (Anomaly) l.value())
        .toList();
    return OfflineCorrelator.run(config, inventory, anomalies);
  }
}
