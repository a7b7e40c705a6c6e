package io.fleetscope.flink.thermal;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.Topics;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;

/**
 * Keyed by CDU loop (cluster|device|loop): CoolantFlowLow and CoolantSupplyHot with the loop's
 * limits from the CDU's inventory attributes (else the configured defaults); CoolantLeak is decided
 * per reading as it arrives by the fast path ({@link CoolantLeakFunction}). Emits anomalies only
 * (side output).
 */
public final class CoolantAlertFunction extends TickedKeyedFunction<CoolantReading, Anomaly> {
  private static final long serialVersionUID = 1L;
  static final Set<String> CONTEXT_LABELS = Set.of("racks");

  private final FacilitySettings cfg;
  private final AnomalyFactory factory;
  private transient ValueState<LoopState> state;

  /** Keyed state: the loop's monitor and its alert lifecycle. */
  static final class LoopState implements Serializable {
    private static final long serialVersionUID = 1L;
    final CoolantLoopMonitor monitor;
    final AlertTracker alerts = new AlertTracker();

    LoopState(FacilitySettings cfg) {
      this.monitor = new CoolantLoopMonitor(cfg);
    }
  }

  public CoolantAlertFunction(FacilitySettings cfg, PipelineConfig pipeline, WallClock clock, String source) {
    super(Topics.COOLANT, CoolantReading.class, cfg.tickMs(), pipeline, clock);
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  /** A CDU's backlog after an outage (its agent spooled) is evaluated on the loop's own clock. */
  @Override
  protected boolean catchesUp() {
    return true;
  }

  public static String keyOf(CoolantReading r) {
    return r.getCluster() + "|" + r.getDevice() + "|" + r.getLoop();
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("facility-loop",
        new JavaSerializableTypeInfo<>(LoopState.class)));
  }

  @Override
  protected void onTick(Tick<Anomaly> tick, List<CoolantReading> records) throws Exception {
    if (records.isEmpty()) {
      return;
    }
    LoopState s = state.value();
    if (s == null) {
      s = new LoopState(cfg);
    }
    CoolantReading first = records.get(0);
    CoolantLoopMonitor.Limits limits = s.monitor.limits(TopologyLookups.cduAttributes(tick.topology(), first.getDevice()));
    TreeSet<String> racks = racksOf(tick, first.getDevice());
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("cluster", first.getCluster());
    labels.put("device", first.getDevice());
    labels.put("loop", first.getLoop());
    if (!racks.isEmpty()) {
      labels.put("racks", String.join(",", racks));
    }
    for (CoolantReading r : records) {
      for (AlertChange c : s.monitor.onReading(r, limits, labels)) {
        if (LeakSensorState.ALERTS.contains(c.alertname())) {
          continue; // the fast path's (CoolantLeakFunction)
        }
        tick.anomaly(Alerts.toAnomaly(factory, s.alerts, c, r.getTs(), CONTEXT_LABELS));
      }
    }
    state.update(s);
  }

  /** The inventory's CDU -> racks index, built once per tick end (every CDU of this subtask ticks then). */
  private transient long racksAt = Long.MIN_VALUE;
  private transient java.util.Map<String, TreeSet<String>> racksByCdu;

  private TreeSet<String> racksOf(Tick<?> tick, String device) {
    if (racksByCdu == null || racksAt != tick.end()) {
      racksByCdu = TopologyLookups.racksByCdu(tick.topology());
      racksAt = tick.end();
    }
    return racksByCdu.getOrDefault(device, new TreeSet<>());
  }
}
