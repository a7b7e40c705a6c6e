package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.io.Records;
import java.io.Serializable;
import java.util.Arrays;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
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
 * the main output.
 *
 * @param <IN> raw record type
 * @param <S> the unit's state (keyed state {@code stateName})
 */
public abstract class ArrivalFunction<IN extends SpecificRecord, S extends Serializable>
    extends KeyedBroadcastProcessFunction<String, IN, SpecificRecord, Anomaly> {
  private static final long serialVersionUID = 1L;

  private final String stateName;
  private final Class<S> stateClass;
  private transient ValueState<S> state;
  private transient ValueState<long[]> newest;

  protected ArrivalFunction(String stateName, Class<S> stateClass) {
    this.stateName = stateName;
    this.stateClass = stateClass;
  }

  /** What a decision can do: read the topology, emit an anomaly, ask for a wake-up in event time. */
  public interface Decisions {
    /** The current key. */
    String key();

    Topology topology();

    void anomaly(Anomaly a);

    /** Calls {@link #onWake} once the watermark passes {@code ts}. */
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
    if (!mayDecide(value)) {
      return;
    }
    S s = state.value();
    if (s == null) {
      s = newState();
    }
    // the jobs as they stood at the record's time
    Long at = ctx.timestamp();
    onRecord(value, s, decisions(ctx.getCurrentKey(), new Topology(ctx.getBroadcastState(Topology.INVENTORY),
        ctx.getBroadcastState(Topology.JOBS)).asOf(at == null ? Long.MAX_VALUE : at), ctx.timerService(), out));
    state.update(s);
  }

  @Override
  public final void processBroadcastElement(SpecificRecord value, Context ctx, Collector<Anomaly> out) throws Exception {
    Topology.apply(value, ctx.getBroadcastState(Topology.INVENTORY), ctx.getBroadcastState(Topology.JOBS));
  }

  @Override
  public final void onTimer(long timestamp, OnTimerContext ctx, Collector<Anomaly> out) throws Exception {
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
