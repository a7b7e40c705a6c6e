package io.fleetscope.flink.peer;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.BufferedTickFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.Serializable;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

/**
 * Keyed by peer group: compares the members of each window on every configured metric
 * ({@link PeerGroupDetector}) and emits GpuPeerOutlier / LinkPeerOutlier transitions. A group not
 * formed by job membership skips the job-only metrics ({@code job_only_metrics}).
 */
public final class PeerWindowFunction extends BufferedTickFunction<PeerInput, Anomaly> {
  private static final long serialVersionUID = 1L;
  static final Set<String> CONTEXT_LABELS = Set.of("rack", "peer_group");
  private final PeerOutlierSettings cfg;
  private final AnomalyFactory factory;
  private transient ValueState<GroupState> state;

  static final class GroupState implements Serializable {
    private static final long serialVersionUID = 1L;
    final PeerGroupDetector detector;
    final AlertTracker alerts = new AlertTracker();
    long lastWindowEnd = Long.MIN_VALUE;

    GroupState(String alertname, PeerOutlierSettings cfg) {
      detector = new PeerGroupDetector(alertname, cfg);
    }
  }

  public PeerWindowFunction(PeerOutlierSettings cfg, String source) {
    super(TypeInformation.of(PeerInput.class), "peer-group");
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("peer-group",
        new JavaSerializableTypeInfo<>(GroupState.class)));
  }

  @Override
  protected Comparator<PeerInput> order() {
    return PeerInput.ORDER;
  }

  @Override
  protected void onTick(long timestamp, List<PeerInput> records, OnTimerContext ctx, Collector<Anomaly> out)
      throws Exception {
    if (records.isEmpty()) {
      return;
    }
    PeerInput first = records.get(0);
    boolean gpu = first.kind == PeerInput.GPU;
    GroupState s = state.value();
    if (s == null) {
      s = new GroupState(gpu ? "GpuPeerOutlier" : "LinkPeerOutlier", cfg);
    }
    Map<String, Map<String, String>> labels = new HashMap<>();
    Map<String, GpuWindowStats> stats = new TreeMap<>();
    for (PeerInput p : records) {
      Map<String, String> l = new LinkedHashMap<>();
      l.put("cluster", p.cluster);
      l.put("node", p.node);
      if (gpu) {
        l.put("gpu", Integer.toString(p.gpu));
        stats.put(p.member, p.stats());
      } else {
        l.put("device", p.device);
        l.put("port", Integer.toString(p.port));
        l.put("rail", Integer.toString(p.rail));
      }
      if (p.rack != null) {
        l.put("rack", p.rack);
      }
      labels.put(p.member, l);
    }
    long windowEnd = first.windowEnd;
    s.lastWindowEnd = Math.max(s.lastWindowEnd, windowEnd);
    boolean byJob = first.groupByJob();
    for (PeerMetric m : gpu ? cfg.gpuMetrics() : cfg.linkMetrics()) {
      if (!cfg.compares(m.name(), byJob)) {
        continue;
      }
      Map<String, Double> values;
      if (gpu) {
        values = GpuWindowStats.valuesOf(m.name(), stats, cfg.powerSimilarityPct());
      } else {
        values = new TreeMap<>();
        for (PeerInput p : records) {
          Double v = p.linkMetric(m.name());
          if (v != null) {
            values.put(p.member, v);
          }
        }
      }
      for (AlertChange c : s.detector.onWindow(m, values, labels, first.group, windowEnd)) {
        Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, windowEnd, CONTEXT_LABELS);
        if (a != null) {
          out.collect(a);
        }
      }
    }
    state.update(s);
  }

  /** Windows without any member after which a group is gone (job ended, rack emptied). */
  private long idleMs() {
    return (cfg.sustainWindows() + 1L) * cfg.windowS() * 1000;
  }

  @Override
  protected long deadlineOf(PeerInput p) {
    return p.windowEnd + idleMs();
  }

  /**
   * A group that sent nothing for sustain_windows + 1 windows and has nothing firing is gone (job
   * ended, rack emptied): its state is dropped. A group that goes silent while an alert fires keeps
   * it (the end of a bounded input is no recovery; TelemetryStale speaks for silent sources).
   */
  @Override
  protected void onTime(long timestamp, OnTimerContext ctx, Collector<Anomaly> out) throws Exception {
    GroupState s = state.value();
    if (s == null || s.lastWindowEnd == Long.MIN_VALUE) {
      return;
    }
    if (s.lastWindowEnd + idleMs() <= timestamp && s.detector.firingCount() == 0) {
      state.clear();
    }
  }
}
