package io.fleetscope.flink.ckpt;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CheckpointSlo;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.BufferedTickFunction;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.Serializable;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

/**
 * Keyed by cluster: the cluster's interruption rate and, per job, a {@link CheckpointSloTracker};
 * emits one CheckpointSlo per finished checkpoint (with the Young/Daly interval for the job's
 * measured cost and MTBF) and the CheckpointSlow / CheckpointSloBurn transitions.
 */
public final class CheckpointSloFunction extends BufferedTickFunction<CkptInput, CheckpointSlo> {
  private static final long serialVersionUID = 1L;
  private final CheckpointSloSettings cfg;
  private final long latenessMs;
  private final AnomalyFactory factory;
  private transient ValueState<ClusterState> state;

  static final class ClusterState implements Serializable {
    private static final long serialVersionUID = 1L;
    final InterruptionRate rate;
    final HashMap<String, CheckpointSloTracker> jobs = new HashMap<>();
    final AlertTracker alerts = new AlertTracker();

    ClusterState(CheckpointSloSettings cfg) {
      rate = new InterruptionRate(cfg);
    }
  }

  public CheckpointSloFunction(CheckpointSloSettings cfg, long latenessMs, String source) {
    super(TypeInformation.of(CkptInput.class), "ckpt-cluster");
    this.cfg = cfg;
    this.latenessMs = latenessMs;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("ckpt-cluster",
        new JavaSerializableTypeInfo<>(ClusterState.class)));
  }

  @Override
  protected Comparator<CkptInput> order() {
    return CkptInput.ORDER;
  }

  @Override
  protected void onTick(long timestamp, List<CkptInput> records, OnTimerContext ctx, Collector<CheckpointSlo> out)
      throws Exception {
    ClusterState s = state.value();
    if (s == null) {
      s = new ClusterState(cfg);
    }
    for (CkptInput i : records) {
      if (i.kind == CkptInput.INTERRUPTION) {
        s.rate.interruption(i.node, i.ts);
        continue;
      }
      s.rate.observe(i.ts);
      if (i.kind == CkptInput.START) {
        // the check's timer was registered on arrival (deadlineOf)
        s.jobs.computeIfAbsent(i.job, j -> new CheckpointSloTracker(cfg)).onStart(i.event(), cfg.tickMs(), latenessMs);
        continue;
      }
      int jobGpus = i.jobGpus > 0 ? i.jobGpus : (i.ranks != null && i.ranks > 0 ? i.ranks : 0);
      Double mtbf = jobGpus > 0 ? s.rate.jobMtbfS(i.fleetGpus > 0 ? i.fleetGpus : jobGpus, jobGpus) : null;
      CheckpointSloTracker t = s.jobs.computeIfAbsent(i.job, j -> new CheckpointSloTracker(cfg));
      CheckpointSloTracker.Outcome o = t.onEvent(i.event(), mtbf);
      if (o.slo() != null) {
        out.collect(o.slo());
      }
      for (AlertChange c : o.changes()) {
        Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, o.slo() != null ? o.slo().getTs() : i.ts, Set.of("tier"));
        if (a != null) {
          ctx.output(TickedKeyedFunction.ANOMALIES, a);
        }
      }
    }
    state.update(s);
  }

  @Override
  protected long deadlineOf(CkptInput i) {
    return i.kind == CkptInput.START ? CheckpointSloTracker.checkAt(cfg, i.startedTs, i.tier, cfg.tickMs(), latenessMs) : -1;
  }

  @Override
  protected void onTime(long timestamp, OnTimerContext ctx, Collector<CheckpointSlo> out) throws Exception {
    ClusterState s = state.value();
    if (s == null) {
      return;
    }
    String cluster = ctx.getCurrentKey();
    for (java.util.Map.Entry<String, CheckpointSloTracker> e : new java.util.TreeMap<>(s.jobs).entrySet()) {
      for (AlertChange c : e.getValue().onTime(cluster, e.getKey(), timestamp)) {
        Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, timestamp, Set.of("tier"));
        if (a != null) {
          ctx.output(TickedKeyedFunction.ANOMALIES, a);
        }
      }
      if (e.getValue().idleAt(timestamp)) {
        s.jobs.remove(e.getKey()); // the job ended: its state goes
      }
    }
    state.update(s);
  }
}
