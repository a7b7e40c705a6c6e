package io.fleetscope.cli;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.AnalyzeMain;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleReader;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.config.SettingsDiff;
import io.fleetscope.streams.CorrelatorConfig;
import io.fleetscope.streams.OfflineCorrelator;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code analyze}'s follow-up on a bundle: the correlator ({@link OfflineCorrelator}, default
 * settings) over the anomalies the analytics produced, with the bundle's inventory; its incident
 * versions become fleet.alerts.v1 lines of the output.
 */
final class BundleIncidents implements AnalyzeMain.Followup {
  private static final Logger log = LoggerFactory.getLogger(BundleIncidents.class);
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

  @Override
  public void before(BundleReader bundle) {
    log.info("analyze settings=correlator bundle={} used=built-in {}", bundle.text(Manifest.CORRELATOR_CONFIG).isPresent()
        ? Manifest.CORRELATOR_CONFIG : "none-recorded(built-in)", SettingsDiff.describe(differences(bundle, config)));
  }

  /** Where {@code now} differs from the correlator settings the bundle recorded (the built-in ones when it recorded none). */
  static List<SettingsDiff.Difference> differences(BundleReader bundle, CorrelatorConfig now) {
    CorrelatorConfig recorded = bundle.text(Manifest.CORRELATOR_CONFIG).map(CorrelatorConfig::fromYaml)
        .orElseGet(CorrelatorConfig::defaults);
    return SettingsDiff.of(recorded.values(), now.values(), CorrelatorConfig::shapesIncidents);
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
