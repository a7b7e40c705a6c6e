package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.io.Records;
import java.io.Serializable;
import io.fleetscope.flink.io.AvroTypeInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The fast path of a keyed analytic: decides per record, as it arrives, without ticks, windows or
 * waiting for a watermark. For hard faults (an uncorrectable ECC error, a link down, a leak) whose
 * condition one record shows. Reads the streams of {@link AnalyticInputs#arrivals}, which have
 * source operators of their own, so the backpressure and the watermarks of the windowed stages do
 * not delay it.
 *
 * <p>Per record of a state (a sample), the operator first compares it with the newest one seen for
 * its key, in a small state of primitives ({@code <stateName>-newest}: the newest time and the
 * record's {@link #signature}): a record older than the newest, or one whose signature is the
 * newest's, cannot change a decision and goes no further, so the unit's state {@code S} (Java
 * serialized, dear on RocksDB) is read and written only when something may change. Records
 * arrive out of order at times; an older one never moves a decision backwards. An event (an XID:
 * {@link #signature} null) counts whenever it comes and always reaches {@link #onRecord}. Event-time timers
 * ({@link Decisions#wakeAt}) resolve conditions that end by a quiet period; their time is part of
 * the decision, so a live and a bounded run agree.
 *
 * <p>The second input is the topology broadcast (for context labels, e.g. the rack). Anomalies are
 * the main output. The two inputs race: a job started on a backlog (a replay, a restart) can read a
 * record before its node's inventory record, and would label it without the node's context (another
 * fingerprint than the same record after the inventory). With {@link #holdingForInventory} a key's
 * records whose node (or device) has no inventory yet are held, in order, until it arrives, at most
 * that long (processing time) and at most {@link #MAX_HELD} records, then decided with whatever
 * topology there is; a key that waited in vain is not held again. At the end of a bounded input
 * held records are decided before the operator ends.
 *
 * @param <IN> raw record type
 * @param <S> the unit's state (keyed state {@code stateName})
 */
public abstract class ArrivalFunction<IN extends SpecificRecord, S extends Serializable>
    extends KeyedBroadcastProcessFunction<String, IN, SpecificRecord, Anomaly> {
  private static final long serialVersionUID = 1L;
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ArrivalFunction.class);

  /** Most records held for one key while its node's inventory is awaited. */
  public static final int MAX_HELD = 256;
  /** How often a key with held records looks for its node's inventory (processing time). */
  static final long HOLD_POLL_MS = 100;
  /** The event-time timer that releases held records at the end of a bounded input; never a decision's wake-up. */
  private static final long END_OF_INPUT = Long.MAX_VALUE;

  private final String stateName;
  private final Class<S> stateClass;
  private long inventoryHoldMs;
  private transient ValueState<S> state;
  private transient ValueState<long[]> newest;
  /** Records held for the key's inventory, in arrival order. */
  private transient ListState<SpecificRecord> held;
  /** {processing-time deadline, records held}; deadline -1: this key waited in vain once and is not held again. */
  private transient ValueState<long[]> hold;

  protected ArrivalFunction(String stateName, Class<S> stateClass) {
    this.stateName = stateName;
    this.stateClass = stateClass;
  }

  /**
   * Holds a key's records whose node has no inventory yet for at most {@code ms} (processing
   * time) until it arrives; 0 (the default) decides every record at once.
   */
  public ArrivalFunction<IN, S> holdingForInventory(long ms) {
    if (ms < 0) {
      throw new IllegalArgumentException("inventory hold must not be negative: " + ms);
    }
    this.inventoryHoldMs = ms;
    return this;
  }

  /** What a decision can do: read the topology, emit an anomaly, ask for a wake-up in event time. */
  public interface Decisions {
    /** The current key. */
    String key();

    Topology topology();

    void anomaly(Anomaly a);

    /** Calls {@link #onWake} once the watermark passes {@code ts} (before the end of input: never Long.MAX_VALUE). */
    void wakeAt(long ts);
  }

  /**
   * The part of a record of a state that decisions depend on (e.g. the uncorrectable error
   * counter, the link state), or null for an event, which always counts.
   */
  protected abstract long[] signature(IN record);

  /** A new unit's state. */
  protected abstract S newState();

  /** Decides on one record of the current key. */
  protected abstract void onRecord(IN record, S state, Decisions d) throws Exception;

  /**
   * At a time asked for by {@link Decisions#wakeAt}.
   *
   * @return false when the state holds nothing worth keeping (it is cleared)
   */
  protected boolean onWake(long ts, S state, Decisions d) throws Exception {
    return true;
  }

  @Override
  public void open(OpenContext ctx) throws Exception {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>(stateName,
        new io.fleetscope.flink.io.JavaSerializableTypeInfo<>(stateClass)));
    newest = getRuntimeContext().getState(new ValueStateDescriptor<>(stateName + "-newest",
        PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
    held = getRuntimeContext().getListState(new ListStateDescriptor<>(stateName + "-held", AvroTypeInfo.anyRecord()));
    hold = getRuntimeContext().getState(new ValueStateDescriptor<>(stateName + "-hold",
        PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
  }

  /** Whether {@code r} may change a decision (and notes it as the newest when it is). */
  private boolean mayDecide(IN r) throws Exception {
    long[] sig = signature(r);
    if (sig == null) {
      return true;
    }
    long ts = Records.ts(r);
    long[] seen = newest.value();
    if (seen != null && ts <= seen[0]) {
      return false; // older than the newest (or a duplicate): the newest already decided
    }
    boolean same = seen != null && Arrays.equals(seen, 1, seen.length, sig, 0, sig.length);
    long[] now = seen != null && same ? seen : new long[sig.length + 1];
    now[0] = ts;
    if (!same) {
      System.arraycopy(sig, 0, now, 1, sig.length);
    }
    newest.update(now);
    return !same;
  }

  @Override
  public final void processElement(IN value, ReadOnlyContext ctx, Collector<Anomaly> out) throws Exception {
    if (inventoryHoldMs > 0 && held(value, ctx, out)) {
      return;
    }
    Long at = ctx.timestamp();
    decide(value, at == null ? Long.MAX_VALUE : at, ctx, out);
  }

  /** Decides on one record with the topology (and the jobs as they stood) at {@code at}. */
  private void decide(IN value, long at, ReadOnlyContext ctx, Collector<Anomaly> out) throws Exception {
    if (!mayDecide(value)) {
      return;
    }
    S s = state.value();
    if (s == null) {
      s = newState();
    }
    onRecord(value, s, decisions(ctx.getCurrentKey(), new Topology(ctx.getBroadcastState(Topology.INVENTORY),
        ctx.getBroadcastState(Topology.JOBS)).asOf(at), ctx.timerService(), out));
    state.update(s);
  }

  /**
   * Holds {@code value} when its node has no inventory yet, or when records of its key are held
   * already (their order is kept); releases what is held when the inventory has come or the key
   * holds {@link #MAX_HELD} records.
   *
   * @return whether {@code value} is held
   */
  private boolean held(IN value, ReadOnlyContext ctx, Collector<Anomaly> out) throws Exception {
    long[] h = hold.value();
    if (h != null && h[0] < 0) {
      return false; // waited in vain once: decided at once
    }
    boolean known = hasInventory(value, ctx);
    if (h == null) {
      if (known) {
        return false;
      }
      long now = ctx.timerService().currentProcessingTime();
      hold.update(new long[] {now + inventoryHoldMs, 1});
      held.add(value);
      ctx.timerService().registerProcessingTimeTimer(now + HOLD_POLL_MS);
      ctx.timerService().registerEventTimeTimer(END_OF_INPUT);
      return true;
    }
    if (known || h[1] >= MAX_HELD) {
      release(ctx, out, known);
      return false;
    }
    held.add(value);
    hold.update(new long[] {h[0], h[1] + 1});
    return true;
  }

  private boolean hasInventory(SpecificRecord r, ReadOnlyContext ctx) throws Exception {
    String id = Records.nodeOrDevice(r);
    return id == null || ctx.getBroadcastState(Topology.INVENTORY).contains(id);
  }

  /** Decides on the held records in their order; a key released without its inventory is not held again. */
  @SuppressWarnings("unchecked")
  private void release(ReadOnlyContext ctx, Collector<Anomaly> out, boolean inventoryCame) throws Exception {
    List<SpecificRecord> records = new ArrayList<>();
    held.get().forEach(records::add);
    held.clear();
    if (inventoryCame) {
      hold.clear();
    } else {
      hold.update(new long[] {-1, 0});
      LOG.info("fast path decided without inventory operator={} key={} node={} held={} hold_ms={}", stateName,
          ctx.getCurrentKey(), records.isEmpty() ? "" : Records.nodeOrDevice(records.get(0)), records.size(), inventoryHoldMs);
    }
    ctx.timerService().deleteEventTimeTimer(END_OF_INPUT);
    for (SpecificRecord r : records) {
      decide((IN) r, Records.ts(r), ctx, out);
    }
  }

  @Override
  public final void processBroadcastElement(SpecificRecord value, Context ctx, Collector<Anomaly> out) throws Exception {
    Topology.apply(value, ctx.getBroadcastState(Topology.INVENTORY), ctx.getBroadcastState(Topology.JOBS));
  }

  @Override
  public final void onTimer(long timestamp, OnTimerContext ctx, Collector<Anomaly> out) throws Exception {
    if (ctx.timeDomain() == TimeDomain.PROCESSING_TIME || timestamp == END_OF_INPUT) {
      long[] h = hold.value();
      if (h != null && h[0] >= 0) {
        Iterator<SpecificRecord> first = held.get().iterator();
        boolean came = first.hasNext() && hasInventory(first.next(), ctx);
        if (came || timestamp == END_OF_INPUT || timestamp >= h[0]) {
          release(ctx, out, came);
        } else {
          ctx.timerService().registerProcessingTimeTimer(Math.min(h[0], timestamp + HOLD_POLL_MS));
        }
      }
      return;
    }
    S s = state.value();
    if (s == null) {
      return;
    }
    boolean keep = onWake(timestamp, s, decisions(ctx.getCurrentKey(), new Topology(ctx.getBroadcastState(Topology.INVENTORY),
        ctx.getBroadcastState(Topology.JOBS)).asOf(timestamp), ctx.timerService(), out));
    if (keep) {
      state.update(s);
    } else {
      state.clear();
    }
  }

  private static Decisions decisions(String key, Topology topo, TimerService timers, Collector<Anomaly> out) {
    return new Decisions() {
      @Override
      public String key() {
        return key;
      }

      @Override
      public Topology topology() {
        return topo;
      }

      @Override
      public void anomaly(Anomaly a) {
        if (a != null) {
          out.collect(a);
        }
      }

      @Override
      public void wakeAt(long ts) {
        timers.registerEventTimeTimer(ts);
      }
    };
  }
}
