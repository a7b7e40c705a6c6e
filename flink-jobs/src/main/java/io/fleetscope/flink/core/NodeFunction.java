package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.DeadLetters;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import io.fleetscope.flink.io.Records;
import io.fleetscope.flink.io.WallClock;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The one keyed operator of a raw stream, keyed by {@code cluster|node}: every record is shuffled
 * once and dispatched to the {@link NodeAnalytic}s that read its class, instead of one shuffle and
 * one keyed operator per analytic. Each analytic keeps the semantics of {@link TickedKeyedFunction}
 * per unit (node, GPU or port): per-tick buffering, ticks in time order, scheduled ticks, lateness
 * (metric {@code lateRecords} counts one per analytic that finds the record late, and each of them
 * dead-letters it to {@link TickedKeyedFunction#LATE} naming itself). An analytic that folds its
 * records ({@link NodeAnalytic#foldsSlices}) and has a tick longer than {@code pipeline.slice_ms}
 * gets them in slices of that length, so a node holds one slice of its samples rather than the
 * 60 s of the ECC and peer ticks. An analytic's records go to its {@link NodeAnalytic#output()} side
 * output, anomalies and rejections to the shared tags of {@link TickedKeyedFunction}. The main output
 * is unused.
 *
 * <p>State, written so that any state backend keeps it (RocksDB hands out copies: what is not
 * written back is lost): the node's accepted records are appended to one list state, once each
 * however many analytics read them (an append, not a read-modify-write, per record); the units (each
 * analytic's per-GPU or per-port state and open ticks) are one value, read and written once per
 * evaluated slice of the node, when the records due at that slice's end are handed to their units.
 *
 * <p>Analytics join while they build the graph ({@link #add}); the list is fixed once the job
 * graph is generated.
 */
public final class NodeFunction extends KeyedBroadcastProcessFunction<String, SpecificRecord, SpecificRecord, Void> {
  private static final long serialVersionUID = 2L;

  /** The raw record classes node analytics read, and so buffer. */
  static final List<Class<? extends SpecificRecord>> BUFFERED = List.of(
      io.fleetscope.avro.GpuSample.class, io.fleetscope.avro.GpuXid.class, io.fleetscope.avro.IbPortSample.class);

  private final String stage;
  private final long latenessMs;
  private final long outOfOrdernessMs;
  private final long catchUpMs;
  private final long catchUpGraceMs;
  private final long pipelineSliceMs;
  private final WallClock clock;
  private final List<NodeAnalytic<?, ?, ?, ?>> analytics = new ArrayList<>();

  private transient ValueState<NodeState> state;
  private transient ListState<SpecificRecord> buffered;
  private transient Counter lateRecords;
  private transient Map<Class<?>, int[]> routes;
  /** Per analytic, the length of the slices its records are buffered in ({@link NodeAnalytic#sliceMs}). */
  private transient long[] slices;
  /**
   * Per node of this subtask that waits for or catches up on its backlog: the time the operator's
   * output watermark may reach at most ({@link #watermarkHold}), so a second stage gets the node's
   * output of a tick before it evaluates that tick. In memory: after a restore a node's hold comes
   * back at its next timer.
   */
  private transient Map<String, Long> holds;

  public NodeFunction(String stage, PipelineConfig pipeline, WallClock clock) {
    this.stage = stage;
    this.latenessMs = pipeline.allowedLatenessMs();
    this.outOfOrdernessMs = pipeline.outOfOrdernessMs();
    this.catchUpMs = pipeline.catchUpMs();
    this.catchUpGraceMs = pipeline.catchUpGraceMs();
    this.pipelineSliceMs = pipeline.sliceMs();
    this.clock = clock;
  }

  /** The key of every raw record with a node: {@code cluster|node} ({@link NodeKey#of}). */
  public static String nodeKey(SpecificRecord r) {
    return NodeKey.of(r).toString();
  }

  /** Adds an analytic (before the job runs); its output tag is named after the stage and its position. */
  public void add(NodeAnalytic<?, ?, ?, ?> a) {
    a.output(stage + "-" + analytics.size() + "-" + a.getClass().getSimpleName());
    analytics.add(a);
  }

  public List<NodeAnalytic<?, ?, ?, ?>> analytics() {
    return List.copyOf(analytics);
  }

  @Override
  @SuppressWarnings("unchecked")
  public void open(OpenContext ctx) {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>(stage + "-node", new JavaSerializableTypeInfo<>(NodeState.class)));
    buffered = getRuntimeContext().getListState(new ListStateDescriptor<>(stage + "-records",
        AvroTypeInfo.anyOf(BUFFERED.toArray(Class[]::new))));
    lateRecords = getRuntimeContext().getMetricGroup().counter("lateRecords");
    routes = new HashMap<>();
    holds = new HashMap<>();
    slices = new long[analytics.size()];
    for (int i = 0; i < slices.length; i++) {
      slices[i] = analytics.get(i).sliceMs(pipelineSliceMs);
    }
  }

  private int[] route(Class<?> c) {
    int[] r = routes.get(c);
    if (r == null) {
      List<Integer> l = new ArrayList<>();
      for (int i = 0; i < analytics.size(); i++) {
        for (Class<?> in : analytics.get(i).inputs()) {
          if (in.isAssignableFrom(c)) {
            l.add(i);
            break;
          }
        }
      }
      r = l.stream().mapToInt(Integer::intValue).toArray();
      routes.put(c, r);
    }
    return r;
  }

  private long sliceEnd(int analytic, long ts) {
    long slice = slices[analytic];
    return Math.floorDiv(ts, slice) * slice + slice;
  }

  /**
   * Checks the record's lateness for each analytic that reads it, asks for the timers of its slice
   * (and, for a sliced analytic, of its tick) and appends it to the node's records when any analytic
   * takes it. A record behind the watermark for an analytic is taken all the same when it is at most
   * {@code pipeline.catch_up_ms} behind and that analytic has not evaluated its slice of this node
   * yet (a node's backlog after an outage): the node then catches up on its own clock
   * ({@link #catchUp}). Otherwise it is late.
   */
  @Override
  public void processElement(SpecificRecord value, ReadOnlyContext ctx, Collector<Void> out) throws Exception {
    int[] route = route(value.getClass());
    if (route.length == 0) {
      return;
    }
    Long tsObj = ctx.timestamp();
    long ts = tsObj != null ? tsObj : Records.ts(value);
    long wm = ctx.timerService().currentWatermark();
    boolean taken = false;
    NodeState ns = null;
    boolean catchUp = false;
    long firstEnd = Long.MAX_VALUE;
    for (int idx : route) {
      NodeAnalytic<?, ?, ?, ?> a = analytics.get(idx);
      long end = sliceEnd(idx, ts);
      long fireAt = end - 1 + latenessMs;
      if (fireAt <= wm) {
        if (ns == null) {
          ns = nodeState();
        }
        String why = NodeCatchUp.refusal(ts, end, wm, catchUpMs, ns.evaluatedTo(idx));
        if (why == null) {
          taken = true;
          catchUp = true;
          firstEnd = Math.min(firstEnd, end);
          continue;
        }
        lateRecords.inc();
        ctx.output(TickedKeyedFunction.LATE, DeadLetters.rejected(a.topic(), value,
            DeadLetters.LATE + "ts=" + ts + " watermark=" + wm + " analytic=" + a.name() + " (" + why + ")", clock.now()));
        continue;
      }
      taken = true;
      ctx.timerService().registerEventTimeTimer(fireAt);
      long tickEnd = a.tickEndOf(ts);
      if (tickEnd != end) { // a slice: the unit's tick must come too
        ctx.timerService().registerEventTimeTimer(tickEnd - 1 + latenessMs);
      }
    }
    if (taken) {
      buffered.add(value);
    }
    if (catchUp) {
      catchUp(ns, ts, firstEnd, wm, ctx);
      state.update(ns);
      holds.merge(ctx.getCurrentKey(), firstEnd - 2 + latenessMs, Math::min);
    }
  }

  private NodeState nodeState() throws Exception {
    NodeState ns = state.value();
    return ns != null ? ns : new NodeState(analytics.size());
  }

  /**
   * A record of the node's backlog was taken: the node's own clock ({@link NodeCatchUp}) moves to
   * it, and the node's slices that clock has passed get their timers. Those are behind the
   * watermark, so they fire at its next advance, in time order, each with its own time, so what the
   * analytics emit carries the time it would have had in time. The flush timer moves to
   * {@code catch_up_grace_ms} after the watermark: then whatever the backlog left open is evaluated
   * (a timer of the node that fires before it and that its own clock has not passed waits).
   */
  private void catchUp(NodeState ns, long ts, long firstEnd, long wm, ReadOnlyContext ctx) throws Exception {
    NodeCatchUp c = ns.catchUp();
    if (c.flushAt == 0) {
      c.registeredTo = firstEnd - 1;
    }
    c.newest = Math.max(c.newest, ts);
    armFlush(c, wm, ctx);
    timersOfDueSlices(c, ctx);
  }

  /** Gives the slices the node's own clock has passed since the last call their timers. */
  private void timersOfDueSlices(NodeCatchUp c, ReadOnlyContext ctx) {
    long due = c.dueUpTo(outOfOrdernessMs, latenessMs);
    if (due > c.registeredTo) {
      for (long slice : slices) {
        for (long e = Math.floorDiv(c.registeredTo, slice) * slice + slice; e <= due; e += slice) {
          ctx.timerService().registerEventTimeTimer(e - 1 + latenessMs);
        }
      }
      c.registeredTo = due;
    }
  }

  /** Moves the node's flush timer to {@code catch_up_grace_ms} after the watermark {@code wm}. */
  private void armFlush(NodeCatchUp c, long wm, ReadOnlyContext ctx) {
    long flushAt = NodeCatchUp.flushTimer(wm, catchUpGraceMs, latenessMs, slices, tickLengths());
    if (c.flushAt != flushAt) {
      if (c.flushAt != 0) {
        ctx.timerService().deleteEventTimeTimer(c.flushAt);
      }
      ctx.timerService().registerEventTimeTimer(flushAt);
      c.flushAt = flushAt;
    }
  }

  private long[] tickLengths() {
    long[] t = new long[analytics.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = analytics.get(i).tickMs();
    }
    return t;
  }

  @Override
  public void processBroadcastElement(SpecificRecord value, Context ctx, Collector<Void> out) throws Exception {
    Topology.apply(value, ctx.getBroadcastState(Topology.INVENTORY), ctx.getBroadcastState(Topology.JOBS));
  }

  /**
   * The slice (or tick) ending at {@code timestamp + 1 - lateness}, and any of the node's earlier ones
   * still open: the node's records due then go to their units, in arrival order, and every unit with
   * that end open is evaluated; records no analytic still waits for leave the list, and the units
   * are written back. While the node catches up on its backlog, only what its own clock has passed
   * is evaluated, and its flush timer evaluates the rest.
   */
  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<Void> out) throws Exception {
    long end = timestamp + 1 - latenessMs;
    NodeState ns = state.value();
    if (ns != null && ns.catchUp().flushAt != 0) {
      NodeCatchUp c = ns.catchUp();
      if (timestamp >= c.flushAt && watermarkJumped(timestamp, ctx)) {
        // the watermark jumped past the flush (another outage while the node caught up: the other
        // nodes' records came back first): its backlog gets the grace again from here
        armFlush(c, ctx.timerService().currentWatermark(), ctx);
        state.update(ns);
        return;
      }
      if (timestamp >= c.flushAt) { // caught up: the open ends get their timers, the watermark decides again
        c.flushAt = 0;
        c.newest = 0;
        c.flushedTo = end;
        for (long e : openEnds(end, ns)) {
          // behind the watermark: they fire in this same advance, before the operator emits it
          ctx.timerService().registerEventTimeTimer(e - 1 + latenessMs);
        }
        state.update(ns);
        holds.remove(ctx.getCurrentKey());
        return;
      }
      holds.merge(ctx.getCurrentKey(), timestamp - 1, Math::min);
      if (end > c.dueUpTo(outOfOrdernessMs, latenessMs)) {
        // the node's records that came in time (after its backlog) move its clock too
        long newest = newestBuffered();
        if (newest > c.newest) {
          c.newest = newest;
          timersOfDueSlices(c, ctx);
          state.update(ns);
        }
        if (end > c.dueUpTo(outOfOrdernessMs, latenessMs)) {
          return; // its backlog may still come: the node's clock or the flush gives it a timer again
        }
      }
      holds.put(ctx.getCurrentKey(), timestamp); // what it emits next is later than this timer
    } else {
      boolean any = false;
      for (int idx = 0; idx < slices.length && !any; idx++) {
        any = Math.floorMod(end, slices[idx]) == 0;
      }
      if (!any) {
        return;
      }
      if (ns == null) {
        ns = new NodeState(analytics.size());
      }
      if (end > ns.catchUp().flushedTo && fellSilent(timestamp, end, ctx)) {
        NodeCatchUp c = ns.catchUp();
        c.newest = newestBuffered();
        c.registeredTo = end - 1;
        armFlush(c, ctx.timerService().currentWatermark(), ctx);
        state.update(ns);
        holds.put(ctx.getCurrentKey(), timestamp - 1);
        return;
      }
    }
    evaluateUpTo(end, ns, ctx);
    state.update(ns);
  }

  /**
   * Whether the node fell silent while the watermark jumped past this slice: a live run (the
   * watermark within {@code catch_up_ms} of the wall clock), the watermark more than
   * {@code out_of_orderness_ms} past the timer (it moved on in one step, as when the other nodes'
   * records came back at once after an outage), and nothing of the node's beyond this slice. Its
   * slice then waits for the node's backlog, up to {@code catch_up_grace_ms}, instead of being
   * evaluated without it. Never on the steady watermark's path, nor in a replay or a bounded run.
   */
  private boolean fellSilent(long timestamp, long end, OnTimerContext ctx) throws Exception {
    if (!watermarkJumped(timestamp, ctx)) {
      return false;
    }
    long newest = newestBuffered();
    return newest != Long.MIN_VALUE && newest < end;
  }

  /**
   * Whether the watermark moved past the timer at {@code timestamp} in one step of more than
   * {@code out_of_orderness_ms} in a live run (the watermark within {@code catch_up_ms} of the wall
   * clock): the other nodes' records came back at once after an outage, this node's may follow.
   */
  private boolean watermarkJumped(long timestamp, OnTimerContext ctx) {
    long wm = ctx.timerService().currentWatermark();
    return catchUpMs > 0 && wm != Long.MAX_VALUE && wm - timestamp > outOfOrdernessMs && clock.now() - wm <= catchUpMs;
  }

  /**
   * The time this subtask's output watermark may reach at most: just before the earliest output a
   * node that waits for or catches up on its backlog may still emit; {@code Long.MAX_VALUE} when
   * none does ({@link NodeOperator} emits the smaller of this and its input watermark).
   */
  long watermarkHold() {
    long h = Long.MAX_VALUE;
    if (holds != null) {
      for (long v : holds.values()) {
        h = Math.min(h, v);
      }
    }
    return h;
  }

  private long newestBuffered() throws Exception {
    long newest = Long.MIN_VALUE;
    Iterable<SpecificRecord> stored = buffered.get();
    if (stored != null) {
      for (SpecificRecord r : stored) {
        newest = Math.max(newest, Records.ts(r));
      }
    }
    return newest;
  }

  /** The slice and tick ends up to {@code upTo} that the node's records or units still wait for, ascending. */
  private java.util.TreeSet<Long> openEnds(long upTo, NodeState ns) throws Exception {
    return openEnds(upTo, ns, buffered.get());
  }

  /** As {@link #openEnds(long, NodeState)}, over records already read from the buffer. */
  private java.util.TreeSet<Long> openEnds(long upTo, NodeState ns, Iterable<SpecificRecord> stored) {
    java.util.TreeSet<Long> ends = new java.util.TreeSet<>();
    if (stored != null) {
      for (SpecificRecord r : stored) {
        long ts = Records.ts(r);
        for (int idx : route(r.getClass())) {
          long e = sliceEnd(idx, ts);
          if (e <= upTo && e > ns.evaluatedTo(idx)) {
            ends.add(e);
          }
        }
      }
    }
    for (ArrayList<Unit> units : ns.units) {
      for (Unit u : units) {
        u.openEndsUpTo(upTo, ends);
      }
    }
    return ends;
  }

  /**
   * Evaluates, in time order, every slice or tick end up to {@code upTo} that the node's records or
   * units still wait for. On the watermark's path that is the timer's own end only; after a backlog
   * it may be several.
   */
  private void evaluateUpTo(long upTo, NodeState ns, ReadOnlyContext ctx) throws Exception {
    ArrayList<SpecificRecord> records = new ArrayList<>();
    Iterable<SpecificRecord> stored = buffered.get();
    if (stored != null) {
      stored.forEach(records::add);
    }
    java.util.TreeSet<Long> ends = openEnds(upTo, ns, records);
    int before = records.size();
    for (long e : ends) {
      evaluate(e, ns, records, ctx);
    }
    if (records.size() != before) {
      buffered.update(records);
    }
  }

  /**
   * Hands the records of {@code records} due at {@code end} to their units, evaluates every unit with
   * that end open and removes from {@code records} those no analytic waits for any more.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void evaluate(long end, NodeState ns, ArrayList<SpecificRecord> records, ReadOnlyContext ctx) throws Exception {
    boolean[] due = new boolean[analytics.size()];
    boolean any = false;
    for (int idx = 0; idx < due.length; idx++) {
      due[idx] = Math.floorMod(end, slices[idx]) == 0;
      any |= due[idx];
    }
    if (!any) {
      return;
    }
    IdentityHashMap<Unit, ArrayList<SpecificRecord>> taken = new IdentityHashMap<>();
    ArrayList<SpecificRecord> keep = new ArrayList<>(records.size());
    for (SpecificRecord r : records) {
      long ts = Records.ts(r);
      long last = Long.MIN_VALUE;
      for (int idx : route(r.getClass())) {
        long e = sliceEnd(idx, ts);
        last = Math.max(last, e);
        if (!due[idx] || e != end) {
          continue;
        }
        NodeAnalytic a = analytics.get(idx);
        Unit u = ns.unit(idx, a, r);
        taken.computeIfAbsent(u, k -> new ArrayList<>()).add(r);
        u.schedule(end);
        long tickEnd = a.tickEndOf(ts);
        if (tickEnd != end) {
          u.schedule(tickEnd);
        }
      }
      if (last > end) {
        keep.add(r);
      }
    }
    if (keep.size() != records.size()) {
      records.clear();
      records.addAll(keep);
    }
    Topology topo = null;
    Where where = new Where(ctx.getCurrentKey());
    for (int idx = 0; idx < analytics.size(); idx++) {
      if (!due[idx]) {
        continue;
      }
      ns.evaluated(idx, end);
      if (idx >= ns.units.size()) {
        continue;
      }
      NodeAnalytic a = analytics.get(idx);
      boolean tickEnds = Math.floorMod(end, a.tickMs()) == 0;
      ArrayList<Unit> units = ns.units.get(idx);
      // by index: an analytic's tick does not add units
      for (int i = 0; i < units.size(); i++) {
        Unit u = units.get(i);
        if (!u.take(end)) {
          continue;
        }
        ArrayList<SpecificRecord> l = taken.getOrDefault(u, new ArrayList<>(0));
        if (l.size() > 1) {
          l.sort(Records::compareByTime);
        }
        if (topo == null) {
          // the jobs as they stood in the tick, whatever has arrived since
          topo = new Topology(ctx.getBroadcastState(Topology.INVENTORY), ctx.getBroadcastState(Topology.JOBS)).asOf(end - 1);
        }
        if (tickEnds) {
          a.onTick(new UnitTick(a, where, end, topo, ctx, u), l, u);
        } else if (!l.isEmpty()) {
          a.onSlice(new UnitTick(a, where, a.tickEndOf(end - 1), topo, ctx, u), l, u);
        }
      }
    }
  }

  /** The node a timer fires for: its key, and the key read back as a {@link NodeKey} when a tick asks. */
  private static final class Where {
    final String key;
    private NodeKey node;

    Where(String key) {
      this.key = key;
    }

    NodeKey node() {
      if (node == null) {
        node = NodeKey.parse(key);
      }
      return node;
    }
  }

  /** The tick context of one unit. */
  private final class UnitTick implements NodeAnalytic.UnitTick<Object, Object> {
    private final NodeAnalytic<?, ?, ?, ?> analytic;
    private final Where where;
    private final long end;
    private final Topology topo;
    private final ReadOnlyContext ctx;
    private final Unit unit;

    UnitTick(NodeAnalytic<?, ?, ?, ?> analytic, Where where, long end, Topology topo, ReadOnlyContext ctx, Unit unit) {
      this.analytic = analytic;
      this.where = where;
      this.end = end;
      this.topo = topo;
      this.ctx = ctx;
      this.unit = unit;
    }

    @Override
    public long end() {
      return end;
    }

    @Override
    public String key() {
      return NodeAnalytic.NODE.equals(unit.key) ? where.key : where.key + "|" + unit.key;
    }

    @Override
    public NodeKey node() {
      return where.node();
    }

    @Override
    public Object unit() {
      return unit.key;
    }

    @Override
    public Topology topology() {
      return topo;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void emit(Object value) {
      ctx.output((org.apache.flink.util.OutputTag<Object>) analytic.output(), value);
    }

    @Override
    public void anomaly(Anomaly a) {
      if (a != null) {
        ctx.output(TickedKeyedFunction.ANOMALIES, a);
      }
    }

    @Override
    public void deadLetter(DeadLetter d) {
      if (d != null) {
        ctx.output(TickedKeyedFunction.REJECTED, d);
      }
    }

    @Override
    public void scheduleTick(long tickEnd) {
      if (tickEnd > end) {
        unit.schedule(tickEnd);
        ctx.timerService().registerEventTimeTimer(tickEnd - 1 + latenessMs);
      }
    }
  }

  /**
   * The node's units, per analytic: each unit's key, its analytic's state and its open ticks (the
   * records wait in the node's list state, not here).
   */
  static final class NodeState implements JavaSerializableTypeInfo.DeepCopy<NodeState> {
    private static final long serialVersionUID = 3L;

    final ArrayList<ArrayList<Unit>> units;
    /** Per analytic, the unit found last: a node's devices report in a cycle, so the next is tried first. */
    private int[] cursor;
    /** Per analytic, the latest slice or tick end evaluated for this node (null in state written before it). */
    private long[] evaluated;
    /** The node's own clock while it catches up on a backlog (null in state written before it). */
    private NodeCatchUp catchUp;

    /** The latest slice or tick end analytic {@code idx} has evaluated for this node. */
    long evaluatedTo(int idx) {
      return evaluated == null || idx >= evaluated.length ? Long.MIN_VALUE : evaluated[idx];
    }

    void evaluated(int idx, long end) {
      if (evaluated == null || idx >= evaluated.length) {
        int old = evaluated == null ? 0 : evaluated.length;
        evaluated = evaluated == null ? new long[idx + 1] : java.util.Arrays.copyOf(evaluated, idx + 1);
        java.util.Arrays.fill(evaluated, old, evaluated.length, Long.MIN_VALUE);
      }
      evaluated[idx] = Math.max(evaluated[idx], end);
    }

    NodeCatchUp catchUp() {
      if (catchUp == null) {
        catchUp = new NodeCatchUp();
      }
      return catchUp;
    }

    NodeState(int analytics) {
      units = new ArrayList<>(analytics);
      for (int i = 0; i < analytics; i++) {
        units.add(new ArrayList<>(8));
      }
      cursor = new int[analytics];
    }

    /** Units copied, their analytic state deep-copied. */
    @Override
    public NodeState deepCopy() {
      NodeState c = new NodeState(0);
      for (ArrayList<Unit> l : units) {
        ArrayList<Unit> cl = new ArrayList<>(l.size());
        for (Unit u : l) {
          cl.add(u.deepCopy());
        }
        c.units.add(cl);
      }
      c.cursor = cursor.clone();
      c.evaluated = evaluated == null ? null : evaluated.clone();
      if (catchUp != null) {
        c.catchUp = new NodeCatchUp();
        c.catchUp.newest = catchUp.newest;
        c.catchUp.flushAt = catchUp.flushAt;
        c.catchUp.registeredTo = catchUp.registeredTo;
        c.catchUp.flushedTo = catchUp.flushedTo;
      }
      return c;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    Unit unit(int analytic, NodeAnalytic a, SpecificRecord r) {
      while (units.size() <= analytic) { // an analytic added after this state was written
        units.add(new ArrayList<>(8));
      }
      if (cursor.length < units.size()) {
        cursor = java.util.Arrays.copyOf(cursor, units.size());
      }
      ArrayList<Unit> l = units.get(analytic);
      int n = l.size();
      int i = cursor[analytic];
      for (int k = 0; k < n; k++) {
        if (++i >= n) {
          i = 0;
        }
        Unit u = l.get(i);
        if (a.isUnitOf((Serializable) u.key, r)) {
          cursor[analytic] = i;
          return u;
        }
      }
      Unit u = new Unit(a.unitOf(r));
      l.add(u);
      cursor[analytic] = n;
      return u;
    }
  }

  /** One unit of one analytic: its state and the ends of its open ticks (slices with records, scheduled ticks). */
  static final class Unit implements NodeAnalytic.UnitState<Object>, Serializable {
    private static final long serialVersionUID = 3L;
    final Object key;
    private Object state;
    /** Open tick ends, ascending; usually one or two. */
    private long[] ends = new long[2];
    private int open;

    Unit(Object key) {
      this.key = key;
    }

    /** The open ticks copied, the analytic's state deep-copied. */
    Unit deepCopy() {
      Unit c = new Unit(key);
      c.state = state instanceof Serializable s ? JavaSerializableTypeInfo.copyBySerialization(s) : state;
      c.ends = ends.clone();
      c.open = open;
      return c;
    }

    private int find(long end) {
      for (int i = open - 1; i >= 0; i--) {
        if (ends[i] == end) {
          return i;
        }
        if (ends[i] < end) {
          return -1;
        }
      }
      return -1;
    }

    /** Opens the tick ending at {@code end}; true when it was not open. */
    boolean schedule(long end) {
      if (find(end) >= 0) {
        return false;
      }
      if (open == ends.length) {
        ends = java.util.Arrays.copyOf(ends, open * 2);
      }
      int i = open;
      while (i > 0 && ends[i - 1] > end) {
        ends[i] = ends[i - 1];
        i--;
      }
      ends[i] = end;
      open++;
      return true;
    }

    /** Closes the tick ending at {@code end}; false when it was not open. */
    boolean take(long end) {
      int i = find(end);
      if (i < 0) {
        return false;
      }
      System.arraycopy(ends, i + 1, ends, i, open - i - 1);
      open--;
      return true;
    }

    /** Adds the open tick ends up to {@code upTo} to {@code into}. */
    void openEndsUpTo(long upTo, java.util.Set<Long> into) {
      for (int i = 0; i < open && ends[i] <= upTo; i++) {
        into.add(ends[i]);
      }
    }

    /** The open tick ends, ascending (tests). */
    long[] openEnds() {
      return java.util.Arrays.copyOf(ends, open);
    }

    @Override
    public Object value() {
      return state;
    }

    @Override
    public void update(Object value) {
      this.state = value;
    }
  }
}
