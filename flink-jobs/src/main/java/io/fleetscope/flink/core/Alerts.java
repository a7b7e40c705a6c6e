package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import java.util.Map;
import java.util.Set;

/** Turns the {@link AlertChange}s of the pure analytics into fleet.anomalies.v1 records. */
public final class Alerts {
  private Alerts() {}

  /**
   * The anomaly record of one change, or null when the tracker already had that state.
   *
   * @param contextLabels label names that describe but do not identify the condition (e.g. driver,
   *     rack, models): the resolution matches the firing whatever they say then
   */
  public static Anomaly toAnomaly(AnomalyFactory factory, AlertTracker tracker, AlertChange c, long ts,
      Set<String> contextLabels) {
    AnomalyFactory.Draft d = factory.alert(c.alertname(), c.severity());
    for (Map.Entry<String, String> e : c.labels().entrySet()) {
      if (contextLabels.contains(e.getKey())) {
        d.context(e.getKey(), e.getValue());
      } else {
        d.label(e.getKey(), e.getValue());
      }
    }
    d.summary(c.summary()).description(c.description()).value(c.value());
    return tracker.update(d, c.firing(), ts);
  }
}
