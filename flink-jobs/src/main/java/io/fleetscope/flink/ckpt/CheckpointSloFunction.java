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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

/**
 * Keyed by cluster: the cluster's interruption rate and, per job, a {@link CheckpointSloTracker};
 * emits one CheckpointSlo per finished checkpoint (with the Young/Daly interval for the job's
 * measured cost and MTBF) and the CheckpointSlow / CheckpointSloBurn transitions.
 *
 * <p>Its inputs: the checkpoint events in event time (from {@link CheckpointInputFunction}), the
 * interrupting XIDs, and every checkpoint event again as it arrives ({@link CheckpointArrivals},
 * time {@link Long#MIN_VALUE}), which feed the cluster's {@link CheckpointStreamClock}. Whether a
 * started checkpoint is overdue is judged on that clock ({@link CheckpointDeadline}), at every
 * timer from the checkpoint's check time on: the watermark here is the minimum of the checkpoint
 * and XID stages, and while the checkpoint stage is idle the XIDs alone move it, ahead of a
 * checkpoint completion still on its way.
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
    /** Null in state saved before it existed. */
    CheckpointStreamClock clock = new CheckpointStreamClock();
    /** Shared storage tier -> its last state ({@link TierCause}); null in state saved before it existed. */
    HashMap<String, TierCause.Mark> tiers = new HashMap<>();
    /**
     * Newest event time any input of the cluster has shown (checkpoint events, XIDs, tier states):
     * the time a verdict may be judged as of. Null in state saved before it existed.
     */
    Long inputsTime;

    ClusterState(CheckpointSloSettings cfg) {
      rate = new InterruptionRate(cfg);
    }

    HashMap<String, TierCause.Mark> tiers() {
      if (tiers == null) {
        tiers = new HashMap<>();
      }
      return tiers;
    }

    CheckpointStreamClock clock() {
      if (clock == null) {
        clock = new CheckpointStreamClock();
      }
      return clock;
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
    CheckpointStreamClock clock = s.clock();
    for (CkptInput i : records) {
      s.inputsTime = Math.max(s.inputsTime != null ? s.inputsTime : Long.MIN_VALUE, i.ts);
      if (i.kind != CkptInput.INTERRUPTION && i.kind != CkptInput.TIER_STATE) {
        clock.seen(i); // what is processed now has arrived, whichever way came first
      }
      if (i.kind == CkptInput.SEEN && "started".equals(i.status)) {
        // open it on arrival: the checkpoint stage hands a start on only once a later checkpoint
        // event has moved fleet.ckpt.v1's time, which never happens if this job was its only one
        open(s, i, ctx);
      }
    }
    if (timestamp != Long.MIN_VALUE) {
      // overdue checkpoints first: their firing holds as of a time before this tick's events
      judgeOverdue(s, ctx.getCurrentKey(), timestamp, ctx);
    }
    for (CkptInput i : records) {
      if (i.kind == CkptInput.SEEN) {
        continue;
      }
      if (i.kind == CkptInput.TIER_STATE) {
        s.tiers().put(i.tier, new TierCause.Mark(i.tierDegraded, i.tierMedianMs, i.ts));
        continue;
      }
      if (i.kind == CkptInput.INTERRUPTION) {
        s.rate.interruption(i.node, i.ts);
        continue;
      }
      s.rate.observe(i.ts);
      if (i.kind == CkptInput.START) {
        open(s, i, ctx); // usually open since its arrival
        continue;
      }
      int jobGpus = i.jobGpus > 0 ? i.jobGpus : (i.ranks != null && i.ranks > 0 ? i.ranks : 0);
      Double mtbf = jobGpus > 0 ? s.rate.jobMtbfS(i.fleetGpus > 0 ? i.fleetGpus : jobGpus, jobGpus) : null;
      CheckpointSloTracker t = s.jobs.computeIfAbsent(i.job, j -> new CheckpointSloTracker(cfg));
      CheckpointSloTracker.Outcome o = t.onEvent(i.event(), mtbf);
      clock.processed(i.job, i.step);
      if (o.slo() != null) {
        out.collect(o.slo());
      }
      for (AlertChange c : o.changes()) {
        Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, o.slo() != null ? o.slo().getTs() : i.ts, Set.of("tier"));
        if (a != null) {
          TierCause.annotate(a, s.tiers(), i.tier);
          ctx.output(TickedKeyedFunction.ANOMALIES, a);
        }
      }
    }
    state.update(s);
  }

  private void open(ClusterState s, CkptInput i, OnTimerContext ctx) {
    long checkAt = s.jobs.computeIfAbsent(i.job, j -> new CheckpointSloTracker(cfg)).onStart(i.event(), latenessMs);
    if (checkAt > ctx.timerService().currentWatermark()) {
      // live runs judge it as soon as the time passes its check time; the fallback's timer
      // (deadlineOf) was registered on arrival and is the one a bounded run relies on
      ctx.timerService().registerEventTimeTimer(checkAt);
    }
  }

  /**
   * Fires CheckpointSlow for every open checkpoint that is overdue at {@code timer}, judged as of
   * the time the inputs have shown. In a live run that is the watermark, which has passed the
   * timer. The end of a bounded input is not: its final watermark fires every timer, the fallback
   * deadlines of checkpoints still running when the input ended included, though no input has
   * reached them (a checkpoint that started 30 s before the end is not hung); then the newest
   * event time of the inputs decides.
   */
  private void judgeOverdue(ClusterState s, String cluster, long timer, OnTimerContext ctx) {
    long shown = s.inputsTime != null ? s.inputsTime : Long.MIN_VALUE;
    long watermark = ctx.timerService().currentWatermark();
    long now = Math.min(timer, watermark == Long.MAX_VALUE ? shown : Math.max(watermark, shown));
    for (Map.Entry<String, CheckpointSloTracker> e : new TreeMap<>(s.jobs).entrySet()) {
      for (CheckpointSloTracker.TimedChange c : e.getValue().onTime(cluster, e.getKey(), now, s.clock())) {
        Anomaly a = Alerts.toAnomaly(factory, s.alerts, c.change(), c.ts(), Set.of("tier"));
        if (a != null) {
          TierCause.annotate(a, s.tiers());
          ctx.output(TickedKeyedFunction.ANOMALIES, a);
        }
      }
    }
  }

  @Override
  protected long deadlineOf(CkptInput i) {
    boolean start = i.kind == CkptInput.START || (i.kind == CkptInput.SEEN && "started".equals(i.status));
    return start ? CheckpointDeadline.of(cfg, i.startedTs, i.tier, latenessMs).fallbackAt() : -1;
  }

  @Override
  protected void onTime(long timestamp, OnTimerContext ctx, Collector<CheckpointSlo> out) throws Exception {
    ClusterState s = state.value();
    if (s == null || timestamp == Long.MIN_VALUE) {
      return; // arrivals only: they carry no time to judge at
    }
    judgeOverdue(s, ctx.getCurrentKey(), timestamp, ctx);
    for (Map.Entry<String, CheckpointSloTracker> e : new TreeMap<>(s.jobs).entrySet()) {
      if (e.getValue().idleAt(timestamp)) {
        s.jobs.remove(e.getKey()); // the job ended: its state goes
      }
    }
    s.clock().evict(cfg.longestWindowMs());
    state.update(s);
  }
}
