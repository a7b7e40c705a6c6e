package io.fleetscope.flink.fleet;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.BufferedTickFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.Serializable;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

/**
 * Keyed by cluster: TelemetryStale for every source of the cluster. Time is the cluster's own
 * progress in event time (the newest record of any of its sources): a source is stale once that
 * passes its last record plus the stale limit, which is also what the watermark says in a live
 * run; the end of a bounded input is no progress, so a finite file does not make every source
 * stale at its end. Resolved once the source's records come regularly again (hysteresis, {@link StaleSource}).
 */
public final class StalenessFunction extends BufferedTickFunction<FleetInput, Anomaly> {
  private static final long serialVersionUID = 1L;
  static final Set<String> CONTEXT_LABELS = Set.of("rack");
  private final FleetHygieneSettings cfg;
  private final AnomalyFactory factory;
  private transient ValueState<ClusterState> state;

  static final class ClusterState implements Serializable {
    private static final long serialVersionUID = 1L;
    final TreeMap<String, StaleSource> sources = new TreeMap<>();
    final TreeMap<String, LinkedHashMap<String, String>> labels = new TreeMap<>();
    final AlertTracker alerts = new AlertTracker();
    long progress = Long.MIN_VALUE;
  }

  public StalenessFunction(FleetHygieneSettings cfg, String source) {
    super(TypeInformation.of(FleetInput.class), "fleet-stale");
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("fleet-stale",
        new JavaSerializableTypeInfo<>(ClusterState.class)));
  }

  @Override
  protected Comparator<FleetInput> order() {
    return FleetInput.HEARTBEAT_ORDER;
  }

  @Override
  protected void onTick(long timestamp, List<FleetInput> records, OnTimerContext ctx, Collector<Anomaly> out)
      throws Exception {
    ClusterState s = state.value();
    if (s == null) {
      s = new ClusterState();
    }
    for (FleetInput f : records) {
      String key = f.sourceKey();
      StaleSource src = s.sources.computeIfAbsent(key, k -> cfg.staleSource(f.stream));
      LinkedHashMap<String, String> l = new LinkedHashMap<>();
      l.put("cluster", f.cluster);
      l.put(f.isNode ? "node" : "device", f.source);
      l.put("stream", f.stream);
      if (f.rack != null) {
        l.put("rack", f.rack);
      }
      s.labels.put(key, l);
      emit(src.onRecord(f.ts, l), f.ts, s, out);
      s.progress = Math.max(s.progress, f.ts);
    }
    for (Map.Entry<String, StaleSource> e : s.sources.entrySet()) {
      emit(e.getValue().onWatermark(s.progress, s.labels.get(e.getKey())), s.progress, s, out);
    }
    state.update(s);
  }

  private void emit(Optional<AlertChange> c, long ts, ClusterState s, Collector<Anomaly> out) {
    if (c.isPresent()) {
      Anomaly a = Alerts.toAnomaly(factory, s.alerts, c.get(), ts, CONTEXT_LABELS);
      if (a != null) {
        out.collect(a);
      }
    }
  }
}
