package io.fleetscope.flink.thermal;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.BufferedTickFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

/**
 * Keyed by rack: the rack's kW from the latest readings of its PDUs at the end of each tick,
 * against its cooling capacity (inventory, else its cooling type's default): RackPowerOverCooling.
 */
public final class RackPowerFunction extends BufferedTickFunction<ThermalInput, Anomaly> {
  private static final long serialVersionUID = 1L;
  static final Set<String> CONTEXT_LABELS = Set.of("device", "cooling");

  private final FacilitySettings cfg;
  private final AnomalyFactory factory;
  private transient ValueState<RackState> state;

  static final class RackState implements Serializable {
    private static final long serialVersionUID = 1L;
    final RackPowerTracker power;
    final RackPowerMonitor monitor;
    final AlertTracker alerts = new AlertTracker();

    RackState(FacilitySettings cfg) {
      power = new RackPowerTracker(cfg.pduReadingMaxAgeS() * 1000);
      monitor = new RackPowerMonitor(cfg);
    }
  }

  public RackPowerFunction(FacilitySettings cfg, String source) {
    super(TypeInformation.of(ThermalInput.class), "facility-rack");
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("facility-rack",
        new JavaSerializableTypeInfo<>(RackState.class)));
  }

  @Override
  protected java.util.Comparator<ThermalInput> order() {
    return ThermalInput.ORDER;
  }

  @Override
  protected void onTick(long timestamp, List<ThermalInput> records, OnTimerContext ctx, Collector<Anomaly> out)
      throws Exception {
    RackState s = state.value();
    if (s == null) {
      s = new RackState(cfg);
    }
    ThermalInput last = null;
    for (ThermalInput i : records) {
      if (i.kind == ThermalInput.PDU && i.watts != null) {
        s.power.add(i.device, i.point, i.ts, i.watts);
        last = i;
      }
    }
    if (last != null) {
      Double kw = s.power.kw(last.ts);
      if (kw != null) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("cluster", last.cluster);
        if (last.rack.startsWith("device:")) {
          labels.put("rack", "unknown");
        } else {
          labels.put("rack", last.rack);
        }
        labels.put("device", String.join(",", s.power.devices()));
        labels.put("cooling", last.coolingType);
        for (AlertChange c : s.monitor.onRackPower(kw, last.rackCapacityKw, last.ts, labels)) {
          Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, last.ts, CONTEXT_LABELS);
          if (a != null) {
            out.collect(a);
          }
        }
      }
    }
    state.update(s);
  }
}
