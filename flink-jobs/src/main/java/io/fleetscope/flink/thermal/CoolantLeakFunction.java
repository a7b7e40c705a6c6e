package io.fleetscope.flink.thermal;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.ArrivalFunction;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The facility analytic's fast path, keyed by CDU loop ({@link CoolantAlertFunction#keyOf}):
 * {@link LeakSensorState} per reading of fleet.coolant.v1.
 */
public final class CoolantLeakFunction extends ArrivalFunction<CoolantReading, LeakSensorState> {
  private static final long serialVersionUID = 1L;
  private final AnomalyFactory factory;

  public CoolantLeakFunction(String source) {
    super("facility-leak", LeakSensorState.class);
    this.factory = new AnomalyFactory(source);
  }

  /** What the leak sensor reads: 1 wet, 0 dry, -1 no sensor. */
  @Override
  protected long[] signature(CoolantReading r) {
    Boolean wet = r.getLeakDetected();
    return new long[] {wet == null ? -1 : wet ? 1 : 0};
  }

  @Override
  protected LeakSensorState newState() {
    return new LeakSensorState();
  }

  @Override
  protected void onRecord(CoolantReading r, LeakSensorState s, Decisions d) {
    AlertChange c = s.onReading(r, () -> labels(r, d));
    if (c != null) {
      d.anomaly(Alerts.toAnomaly(factory, s.alerts, c, r.getTs(), CoolantAlertFunction.CONTEXT_LABELS));
    }
  }

  /** The labels of {@link CoolantAlertFunction}: cluster, device, loop, and the racks the CDU serves (context). */
  private static Map<String, String> labels(CoolantReading r, Decisions d) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("cluster", r.getCluster());
    labels.put("device", r.getDevice());
    labels.put("loop", r.getLoop());
    TreeSet<String> racks = TopologyLookups.racksByCdu(d.topology()).getOrDefault(r.getDevice(), new TreeSet<>());
    if (!racks.isEmpty()) {
      labels.put("racks", String.join(",", racks));
    }
    return labels;
  }
}
