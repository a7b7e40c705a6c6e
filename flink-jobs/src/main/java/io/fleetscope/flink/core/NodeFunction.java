package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.functions.OpenContext;
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
 * 60 s of the ECC and peer ticks (that was most of the checkpoints' bytes). The node's buffers and unit
 * states are one heap object in one ValueState; an analytic's records go to its
 * {@link NodeAnalytic#output()} side output, anomalies and rejections to the shared tags of
 * {@link TickedKeyedFunction}. The main output is unused.
 *
 * <p>Analytics join while the jobs build the graph ({@link #add}); the list is fixed once the job
 * graph is generated.
 */
public final class NodeFunction extends KeyedBroadcastProcessFunction<String, SpecificRecord, SpecificRecord, Void> {
  private static final long serialVersionUID = 1L;

  private final String stage;
  private final long latenessMs;
  private final long pipelineSliceMs;
  private final WallClock clock;
  private final List<NodeAnalytic<?, ?, ?>> analytics = new ArrayList<>();

  private transient ValueState<NodeState> state;
  private transient Counter lateRecords;
  private transient Map<Class<?>, int[]> routes;
  /** Per analytic, the length of the slices its records are buffered in ({@link NodeAnalytic#sliceMs}). */
  private transient long[] slices;

  public NodeFunction(String stage, PipelineConfig pipeline, WallClock clock) {
    this.stage = stage;
    this.latenessMs = pipeline.allowedLatenessMs();
    this.pipelineSliceMs = pipeline.sliceMs();
    this.clock = clock;
  }

  /** The key of every raw record with a node: {@code cluster|node}. */
  public static String nodeKey(SpecificRecord r) {
    return Records.cluster(r) + "|" + Records.nodeOrDevice(r);
  }

  /** Adds an analytic (before the job runs); its output tag is named after the stage and its position. */
  public void add(NodeAnalytic<?, ?, ?> a) {
    a.output(stage + "-" + analytics.size() + "-" + a.getClass().getSimpleName());
    analytics.add(a);
  }

  public List<NodeAnalytic<?, ?, ?>> analytics() {
    return List.copyOf(analytics);
  }

  @Override
  public void open(OpenContext ctx) {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>(stage + "-node", new JavaSerializableTypeInfo<>(NodeState.class)));
    lateRecords = getRuntimeContext().getMetricGroup().counter("lateRecords");
    routes = new HashMap<>();
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

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void processElement(SpecificRecord value, ReadOnlyContext ctx, Collector<Void> out) throws Exception {
    int[] route = route(value.getClass());
    if (route.length == 0) {
      return;
    }
    Long tsObj = ctx.timestamp();
    long ts = tsObj != null ? tsObj : Records.ts(value);
    long wm = ctx.timerService().currentWatermark();
    NodeState ns = state.value();
    if (ns == null) {
      ns = new NodeState(analytics.size());
      // the heap backend hands out this object itself: later changes need no update()
      state.update(ns);
    }
    for (int idx : route) {
      NodeAnalytic a = analytics.get(idx);
      long slice = slices[idx];
      long end = Math.floorDiv(ts, slice) * slice + slice;
      long fireAt = end - 1 + latenessMs;
      if (fireAt <= wm) {
        lateRecords.inc();
        ctx.output(TickedKeyedFunction.LATE, DeadLetters.rejected(a.topic(), value,
            DeadLetters.LATE + "ts=" + ts + " watermark=" + wm + " analytic=" + a.name(), clock.now()));
        continue;
      }
      Unit u = ns.unit(idx, a, value);
      if (u.add(end, value)) {
        ctx.timerService().registerEventTimeTimer(fireAt);
        long tickEnd = a.tickEndOf(ts);
        if (tickEnd != end && u.schedule(tickEnd)) { // a slice: the unit's tick must come too
          ctx.timerService().registerEventTimeTimer(tickEnd - 1 + latenessMs);
        }
      }
    }
  }

  @Override
  public void processBroadcastElement(SpecificRecord value, Context ctx, Collector<Void> out) throws Exception {
    Topology.apply(value, ctx.getBroadcastState(Topology.INVENTORY), ctx.getBroadcastState(Topology.JOBS));
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<Void> out) throws Exception {
    NodeState ns = state.value();
    if (ns == null) {
      return;
    }
    long end = timestamp + 1 - latenessMs;
    Topology topo = null;
    String key = ctx.getCurrentKey();
    for (int idx = 0; idx < analytics.size(); idx++) {
      NodeAnalytic a = analytics.get(idx);
      if (Math.floorMod(end, slices[idx]) != 0) {
        continue;
      }
      boolean tickEnds = Math.floorMod(end, a.tickMs()) == 0;
      if (idx >= ns.units.size()) {
        continue;
      }
      ArrayList<Unit> units = ns.units.get(idx);
      // by index: an analytic's tick does not add units
      for (int i = 0; i < units.size(); i++) {
        Unit u = units.get(i);
        ArrayList<SpecificRecord> l = u.take(end);
        if (l == null) {
          continue;
        }
        if (l.size() > 1) {
          l.sort(Records::compareByTime);
        }
        if (topo == null) {
          topo = new Topology(ctx.getBroadcastState(Topology.INVENTORY), ctx.getBroadcastState(Topology.JOBS));
        }
        String unitKey = NodeAnalytic.NODE.equals(u.key) ? key : key + "|" + u.key;
        if (tickEnds) {
          a.onTick(new UnitTick(a, unitKey, end, topo, ctx, u), l, u);
        } else if (!l.isEmpty()) {
          a.onSlice(new UnitTick(a, unitKey, a.tickEndOf(end - 1), topo, ctx, u), l, u);
        }
      }
    }
  }

  /** The tick context of one unit. */
  private final class UnitTick implements TickedKeyedFunction.Tick<Object> {
    private final NodeAnalytic<?, ?, ?> analytic;
    private final String key;
    private final long end;
    private final Topology topo;
    private final OnTimerContext ctx;
    private final Unit unit;

    UnitTick(NodeAnalytic<?, ?, ?> analytic, String key, long end, Topology topo, OnTimerContext ctx, Unit unit) {
      this.analytic = analytic;
      this.key = key;
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
      return key;
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
   * Everything a node holds: per analytic, its units (buffers and state). In a checkpoint every
   * buffered record is written once, although each analytic that reads it buffers it: the units
   * write indexes into a table of the node's records that follows them (writing a GPU sample once
   * per analytic was most of the checkpoints' cost). Restored units share the records again.
   */
  static final class NodeState implements JavaSerializableTypeInfo.DeepCopy<NodeState> {
    private static final long serialVersionUID = 2L;
    /** While a node state is written on this thread: record -> its index in the node's table. */
    static final ThreadLocal<IdentityHashMap<SpecificRecord, Integer>> WRITING = new ThreadLocal<>();
    /** While a node state is read on this thread: the units waiting for the table. */
    static final ThreadLocal<ArrayList<Unit>> READING = new ThreadLocal<>();

    final ArrayList<ArrayList<Unit>> units;
    /** Per analytic, the unit found last: a node's devices report in a cycle, so the next is tried first. */
    private int[] cursor;

    private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
      IdentityHashMap<SpecificRecord, Integer> table = new IdentityHashMap<>();
      ArrayList<SpecificRecord> order = new ArrayList<>();
      for (ArrayList<Unit> l : units) {
        for (Unit u : l) {
          u.collect(table, order);
        }
      }
      IdentityHashMap<SpecificRecord, Integer> outer = WRITING.get();
      WRITING.set(table);
      try {
        out.defaultWriteObject();
      } finally {
        WRITING.set(outer);
      }
      out.writeInt(order.size());
      org.apache.flink.core.memory.DataOutputViewStreamWrapper view = new org.apache.flink.core.memory.DataOutputViewStreamWrapper(out);
      for (SpecificRecord r : order) {
        Unit.writeRecord(r, out, view);
      }
    }

    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
      ArrayList<Unit> waiting = new ArrayList<>();
      ArrayList<Unit> outer = READING.get();
      READING.set(waiting);
      try {
        in.defaultReadObject();
      } finally {
        READING.set(outer);
      }
      int n = in.readInt();
      org.apache.flink.core.memory.DataInputViewStreamWrapper view = new org.apache.flink.core.memory.DataInputViewStreamWrapper(in);
      ArrayList<SpecificRecord> table = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        table.add(Unit.readRecord(in, view));
      }
      for (Unit u : waiting) {
        u.resolve(table);
      }
    }

    NodeState(int analytics) {
      units = new ArrayList<>(analytics);
      for (int i = 0; i < analytics; i++) {
        units.add(new ArrayList<>(8));
      }
      cursor = new int[analytics];
    }

    /** Units and their tick buffers copied; buffered records shared (never changed once buffered). */
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
        if (a.isUnitOf(u.key, r)) {
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

  /** One unit of one analytic: its open ticks' records and its state. */
  static final class Unit implements NodeAnalytic.UnitState<Object>, Serializable {
    private static final long serialVersionUID = 2L;
    final Object key;
    private Object state;
    /**
     * The open ticks, ascending by end: ends[i] -> lists[i], the tick's records in arrival order
     * (empty for a scheduled tick). Usually one or two, so plain arrays searched from the newest.
     */
    private long[] ends = new long[2];
    /** Written by {@link #writeObject} in Avro binary: Java serialization of Avro records is slow. */
    private transient ArrayList<SpecificRecord>[] lists = newLists(2);
    private int open;
    /** Records of the last tick taken: the next tick's buffer starts that large (no regrowth per tick). */
    private transient int lastCount;
    /** While restoring: per open tick, the indexes of its records in the node's table. */
    private transient int[][] pending;

    Unit(Object key) {
      this.key = key;
    }

    /** The buffers copied, the records in them shared, the analytic's state deep-copied. */
    Unit deepCopy() {
      Unit c = new Unit(key);
      c.state = state instanceof Serializable s ? JavaSerializableTypeInfo.copyBySerialization(s) : state;
      c.ends = ends.clone();
      c.lists = newLists(lists.length);
      for (int i = 0; i < open; i++) {
        c.lists[i] = new ArrayList<>(lists[i]);
      }
      c.open = open;
      return c;
    }

    /** Adds this unit's buffered records that are not in the table yet. */
    void collect(IdentityHashMap<SpecificRecord, Integer> table, ArrayList<SpecificRecord> order) {
      for (int i = 0; i < open; i++) {
        for (SpecificRecord r : lists[i]) {
          if (table.putIfAbsent(r, order.size()) == null) {
            order.add(r);
          }
        }
      }
    }

    /**
     * Inside a node state: the indexes of the buffered records in the node's table. Alone (not
     * part of a node state): the records themselves.
     */
    private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
      out.defaultWriteObject();
      IdentityHashMap<SpecificRecord, Integer> table = NodeState.WRITING.get();
      out.writeBoolean(table != null);
      org.apache.flink.core.memory.DataOutputViewStreamWrapper view = table != null ? null : new org.apache.flink.core.memory.DataOutputViewStreamWrapper(out);
      for (int i = 0; i < open; i++) {
        ArrayList<SpecificRecord> l = lists[i];
        out.writeInt(l.size());
        for (SpecificRecord r : l) {
          if (table != null) {
            out.writeInt(table.get(r));
          } else {
            writeRecord(r, out, view);
          }
        }
      }
    }

    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
      in.defaultReadObject();
      lists = newLists(ends.length);
      boolean indexed = in.readBoolean();
      org.apache.flink.core.memory.DataInputViewStreamWrapper view = indexed ? null : new org.apache.flink.core.memory.DataInputViewStreamWrapper(in);
      if (indexed) {
        ArrayList<Unit> waiting = NodeState.READING.get();
        if (waiting == null) {
          throw new java.io.InvalidObjectException("unit written inside a node state read without it");
        }
        waiting.add(this);
        pending = new int[open][];
      }
      for (int i = 0; i < open; i++) {
        int n = in.readInt();
        ArrayList<SpecificRecord> l = new ArrayList<>(Math.max(n, 16));
        if (indexed) {
          pending[i] = new int[n];
          for (int k = 0; k < n; k++) {
            pending[i][k] = in.readInt();
          }
        } else {
          for (int k = 0; k < n; k++) {
            l.add(readRecord(in, view));
          }
        }
        lists[i] = l;
      }
    }

    /** Fills the buffers from the node's table once it is read. */
    void resolve(List<SpecificRecord> table) throws java.io.InvalidObjectException {
      for (int i = 0; i < open; i++) {
        for (int idx : pending[i]) {
          if (idx < 0 || idx >= table.size()) {
            throw new java.io.InvalidObjectException("buffered record " + idx + " not in the node's table of " + table.size());
          }
          lists[i].add(table.get(idx));
        }
      }
      pending = null;
    }

    static void writeRecord(SpecificRecord r, java.io.ObjectOutputStream out, org.apache.flink.core.memory.DataOutputViewStreamWrapper view)
        throws java.io.IOException {
      if (BufferedRecords.covers(r)) {
        out.writeBoolean(true);
        BufferedRecords.SERIALIZER.get().serialize(r, view);
      } else {
        out.writeBoolean(false);
        out.writeObject(r);
      }
    }

    static SpecificRecord readRecord(java.io.ObjectInputStream in, org.apache.flink.core.memory.DataInputViewStreamWrapper view)
        throws java.io.IOException, ClassNotFoundException {
      return in.readBoolean() ? BufferedRecords.SERIALIZER.get().deserialize(view) : (SpecificRecord) in.readObject();
    }

    @SuppressWarnings("unchecked")
    private static ArrayList<SpecificRecord>[] newLists(int n) {
      return (ArrayList<SpecificRecord>[]) new ArrayList[n];
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

    private ArrayList<SpecificRecord> insert(long end, int capacity) {
      if (open == ends.length) {
        ends = java.util.Arrays.copyOf(ends, open * 2);
        lists = java.util.Arrays.copyOf(lists, open * 2);
      }
      int i = open;
      while (i > 0 && ends[i - 1] > end) {
        ends[i] = ends[i - 1];
        lists[i] = lists[i - 1];
        i--;
      }
      ArrayList<SpecificRecord> l = new ArrayList<>(capacity);
      ends[i] = end;
      lists[i] = l;
      open++;
      return l;
    }

    /** Buffers a record; true when its tick is new for this unit (a timer is then needed). */
    boolean add(long end, SpecificRecord r) {
      int i = find(end);
      if (i >= 0) {
        ArrayList<SpecificRecord> l = lists[i];
        if (l.isEmpty()) {
          // a scheduled tick starts without capacity: size it once rather than growing 1, 2, 3, 4, 6, ...
          l.ensureCapacity(Math.max(16, lastCount + lastCount / 8));
        }
        l.add(r);
        return false;
      }
      insert(end, Math.max(16, lastCount + lastCount / 8)).add(r);
      return true;
    }

    /** Opens the tick ending at {@code end} without records; true when it was not open. */
    boolean schedule(long end) {
      if (find(end) < 0) {
        insert(end, 0);
        return true;
      }
      return false;
    }

    /** Removes and returns the records of the tick ending at {@code end}, null when it is not open. */
    ArrayList<SpecificRecord> take(long end) {
      int i = find(end);
      if (i < 0) {
        return null;
      }
      ArrayList<SpecificRecord> l = lists[i];
      if (!l.isEmpty()) {
        lastCount = l.size();
      }
      System.arraycopy(ends, i + 1, ends, i, open - i - 1);
      System.arraycopy(lists, i + 1, lists, i, open - i - 1);
      open--;
      lists[open] = null;
      return l;
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

  /** The raw record classes node analytics buffer, written with their generated Avro coders. */
  static final class BufferedRecords {
    private BufferedRecords() {}

    static final java.util.List<Class<? extends SpecificRecord>> CLASSES = java.util.List.of(
        io.fleetscope.avro.GpuSample.class, io.fleetscope.avro.GpuXid.class, io.fleetscope.avro.IbPortSample.class);

    /** One serializer per thread: it keeps encoding buffers. */
    static final ThreadLocal<io.fleetscope.flink.io.AvroRecordSerializer<SpecificRecord>> SERIALIZER =
        ThreadLocal.withInitial(() -> new io.fleetscope.flink.io.AvroRecordSerializer<>(SpecificRecord.class, CLASSES));

    static boolean covers(SpecificRecord r) {
      Class<?> c = r.getClass();
      return c == io.fleetscope.avro.GpuSample.class || c == io.fleetscope.avro.GpuXid.class
          || c == io.fleetscope.avro.IbPortSample.class;
    }
  }
}
