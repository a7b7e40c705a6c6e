package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.DeadLetters;
import io.fleetscope.flink.io.Records;
import io.fleetscope.flink.io.WallClock;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The tick engine of a keyed first stage, for any key: buffers a key's records per event-time tick
 * ({@code tickMs}) and hands them to {@link #onTick} sorted by (ts, agent_seq) once the watermark
 * has passed the tick's end plus the allowed lateness. The result therefore does not depend on
 * arrival order, so a live (streaming) run and a bounded (batch) run of the same input give the
 * same output. Records that arrive after their tick was evaluated are late: counted in the metric
 * {@code lateRecords} and emitted as DeadLetters to {@link #LATE}.
 *
 * <p>The second input is the topology broadcast of {@link AnalyticInputs#topology()}; {@link #onTick}
 * reads it through a {@link Topology}. Anomalies go to the side output {@link #ANOMALIES}.
 *
 * <p>An analytic keyed by node or device is a {@link NodeAnalytic} instead (in a node stage, or in a
 * {@link KeyedAnalyticFunction}, which is this class); extend this class directly for another key
 * (a training job, a coolant loop).
 *
 * @param <IN> raw record type
 * @param <OUT> main output type (derived records, or intermediate records for a second stage)
 */
public abstract class TickedKeyedFunction<IN extends SpecificRecord, OUT>
    extends KeyedBroadcastProcessFunction<String, IN, SpecificRecord, OUT> {
  private static final long serialVersionUID = 1L;

  public static final OutputTag<Anomaly> ANOMALIES = new OutputTag<>("anomalies", AvroTypeInfo.forClass(Anomaly.class));
  public static final OutputTag<DeadLetter> LATE = new OutputTag<>("late", AvroTypeInfo.forClass(DeadLetter.class));
  /** Records an analytic rejects where it sees them (impossible values); collected by AnalyticOutputs.sideOutputsOf. */
  public static final OutputTag<DeadLetter> REJECTED = new OutputTag<>("rejected-in-analytic", AvroTypeInfo.forClass(DeadLetter.class));

  private final String topic;
  private final long tickMs;
  private final long latenessMs;
  private final long outOfOrdernessMs;
  private final long catchUpMs;
  private final long catchUpGraceMs;
  private final TypeInformation<IN> inType;
  private final WallClock clock;

  private transient TimedBuffer<IN> pending;
  private transient Counter lateRecords;
  /** The key's catch-up state, when {@link #catchesUp()}; else null. */
  private transient ValueState<KeyCatchUp> catchUp;

  /** A key's own clock while it catches up on a backlog ({@link NodeCatchUp}), and the latest tick end it evaluated. */
  static final class KeyCatchUp implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    long evaluatedTo = Long.MIN_VALUE;
    final NodeCatchUp own = new NodeCatchUp();
  }

  protected TickedKeyedFunction(String topic, Class<IN> inClass, long tickMs, PipelineConfig pipeline, WallClock clock) {
    this(topic, AvroTypeInfo.forClass(inClass), tickMs, pipeline, clock);
  }

  /** For an input that mixes record classes, e.g. {@code AvroTypeInfo.anyOf(GpuSample.class, GpuXid.class)}. */
  protected TickedKeyedFunction(String topic, TypeInformation<IN> inType, long tickMs, PipelineConfig pipeline, WallClock clock) {
    if (tickMs <= 0) {
      throw new IllegalArgumentException("tickMs must be > 0");
    }
    this.topic = topic;
    this.tickMs = tickMs;
    this.latenessMs = pipeline.allowedLatenessMs();
    this.outOfOrdernessMs = pipeline.outOfOrdernessMs();
    this.catchUpMs = pipeline.catchUpMs();
    this.catchUpGraceMs = pipeline.catchUpGraceMs();
    this.inType = inType;
    this.clock = clock;
  }

  /** Output context of one tick. */
  public interface Tick<OUT> {
    /** The tick's end (exclusive), epoch ms; the records are in [end - tickMs, end). */
    long end();

    String key();

    Topology topology();

    void emit(OUT value);

    void anomaly(Anomaly a);

    /** Asks for {@link #onTick} at the tick ending at {@code tickEnd} even if no record comes. */
    void scheduleTick(long tickEnd);

    /** Sends a rejected record to fleet.dlq.v1 (side output {@link #REJECTED}). */
    default void deadLetter(DeadLetter d) {
      throw new UnsupportedOperationException("deadLetter");
    }
  }

  /**
   * Called once per key and tick that has records or was scheduled, in increasing tick order.
   *
   * @param records the tick's records sorted by (ts, agent_seq); may be empty for a scheduled tick
   */
  protected abstract void onTick(Tick<OUT> tick, List<IN> records) throws Exception;

  /** The analytic's name in the dead letters of late records ({@code analytic=...}): the class's simple name. */
  protected String analyticName() {
    return getClass().getSimpleName();
  }

  /** Opens the subclass's keyed state. */
  protected void openState() throws Exception {}

  /**
   * Whether a key's backlog behind the watermark (a facility agent that spooled through a broker
   * outage) is evaluated on the key's own clock, as the node stages do ({@link NodeFunction}): a
   * record at most {@code pipeline.catch_up_ms} behind the watermark whose tick this key has not
   * evaluated yet is taken; its ticks are evaluated, in time order, as the key's newest record less
   * {@code out_of_orderness_ms} passes them, and the rest {@code catch_up_grace_ms} of watermark
   * after its last backlog record. Off by default: a function keyed by something that is not one
   * source of records in its own order (a job, a rack) keeps the watermark's lateness.
   */
  protected boolean catchesUp() {
    return false;
  }

  public final long tickMs() {
    return tickMs;
  }

  public final long tickEndOf(long ts) {
    return Math.floorDiv(ts, tickMs) * tickMs + tickMs;
  }

  @Override
  public final void open(OpenContext ctx) throws Exception {
    pending = TimedBuffer.open(getRuntimeContext(), "buffered", inType);
    lateRecords = getRuntimeContext().getMetricGroup().counter("lateRecords");
    if (catchesUp() && catchUpMs > 0) {
      catchUp = getRuntimeContext().getState(new org.apache.flink.api.common.state.ValueStateDescriptor<>("catch-up",
          new io.fleetscope.flink.io.JavaSerializableTypeInfo<>(KeyCatchUp.class)));
    }
    openState();
  }

  @Override
  public final void processElement(IN value, ReadOnlyContext ctx, Collector<OUT> out) throws Exception {
    Long tsObj = ctx.timestamp();
    long ts = tsObj != null ? tsObj : Records.ts(value);
    long end = tickEndOf(ts);
    long fireAt = end - 1 + latenessMs;
    long wm = ctx.timerService().currentWatermark();
    if (fireAt <= wm) {
      String why = null;
      if (catchUp != null) {
        KeyCatchUp k = keyCatchUp();
        why = NodeCatchUp.refusal(ts, end, wm, catchUpMs, k.evaluatedTo);
        if (why == null) {
          pending.add(end, value);
          takeBacklog(k, ts, end, wm, ctx);
          return;
        }
      }
      lateRecords.inc();
      ctx.output(LATE, DeadLetters.rejected(topic, value,
          DeadLetters.LATE + "ts=" + ts + " watermark=" + wm + " analytic=" + analyticName() + (why == null ? "" : " (" + why + ")"),
          clock.now()));
      return;
    }
    pending.add(end, value);
    ctx.timerService().registerEventTimeTimer(fireAt);
  }

  private KeyCatchUp keyCatchUp() throws Exception {
    KeyCatchUp k = catchUp.value();
    return k != null ? k : new KeyCatchUp();
  }

  /**
   * A backlog record was taken: the key's own clock moves to it, the ticks it has passed get their
   * timers (behind the watermark: they fire at its next advance, in time order), and the flush moves
   * to {@code catch_up_grace_ms} after the watermark.
   */
  private void takeBacklog(KeyCatchUp k, long ts, long end, long wm, ReadOnlyContext ctx) throws Exception {
    NodeCatchUp c = k.own;
    if (c.flushAt == 0) {
      c.registeredTo = end - tickMs; // nothing of this key after its last evaluated tick has a timer yet
    }
    c.newest = Math.max(c.newest, ts);
    long due = c.dueUpTo(outOfOrdernessMs, latenessMs);
    if (due > c.registeredTo) {
      for (long e : pending.times(c.registeredTo, due)) {
        ctx.timerService().registerEventTimeTimer(e - 1 + latenessMs);
      }
      c.registeredTo = due;
    }
    long flushAt = NodeCatchUp.flushTimer(wm, catchUpGraceMs, latenessMs, new long[] {tickMs}, new long[0]);
    if (c.flushAt != flushAt) {
      if (c.flushAt != 0) {
        ctx.timerService().deleteEventTimeTimer(c.flushAt);
      }
      ctx.timerService().registerEventTimeTimer(flushAt);
      c.flushAt = flushAt;
    }
    catchUp.update(k);
  }

  /**
   * While the key catches up: whether the timer at {@code timestamp} is to be skipped (the key's clock
   * has not passed it, or it is the flush, which gives the key's open ticks their timers).
   */
  private boolean waitsForBacklog(long timestamp, long end, OnTimerContext ctx) throws Exception {
    KeyCatchUp k = catchUp.value();
    if (k == null || k.own.flushAt == 0) {
      return false;
    }
    NodeCatchUp c = k.own;
    long wm = ctx.timerService().currentWatermark();
    if (timestamp >= c.flushAt) {
      if (wm != Long.MAX_VALUE && wm - timestamp > outOfOrdernessMs && clock.now() - wm <= catchUpMs) {
        // the watermark jumped past the flush (another outage): the backlog gets the grace again
        long flushAt = NodeCatchUp.flushTimer(wm, catchUpGraceMs, latenessMs, new long[] {tickMs}, new long[0]);
        ctx.timerService().registerEventTimeTimer(flushAt);
        c.flushAt = flushAt;
      } else { // caught up: its open ticks fire in this same advance, in time order
        for (long e : pending.times(k.evaluatedTo, end)) {
          ctx.timerService().registerEventTimeTimer(e - 1 + latenessMs);
        }
        c.flushAt = 0;
        c.newest = 0;
      }
      catchUp.update(k);
      return true;
    }
    return end > c.dueUpTo(outOfOrdernessMs, latenessMs);
  }

  /** Notes that the key evaluated its tick ending at {@code end}: its records behind the watermark before it are late. */
  private void evaluated(long end) throws Exception {
    KeyCatchUp k = keyCatchUp();
    if (end > k.evaluatedTo) {
      k.evaluatedTo = end;
      catchUp.update(k);
    }
  }

  @Override
  public final void processBroadcastElement(SpecificRecord value, Context ctx, Collector<OUT> out) throws Exception {
    Topology.apply(value, ctx.getBroadcastState(Topology.INVENTORY), ctx.getBroadcastState(Topology.JOBS));
  }

  @Override
  public final void onTimer(long timestamp, OnTimerContext ctx, Collector<OUT> out) throws Exception {
    long end = timestamp + 1 - latenessMs;
    if (catchUp != null) {
      if (waitsForBacklog(timestamp, end, ctx)) {
        return;
      }
      evaluated(end);
    }
    List<IN> l = pending.take(end);
    if (l != null) {
      l.sort(Records::compareByTime);
    } else {
      l = List.of();
    }
    // the jobs as they stood in the tick, whatever has arrived since
    Topology topo = new Topology(ctx.getBroadcastState(Topology.INVENTORY), ctx.getBroadcastState(Topology.JOBS)).asOf(end - 1);
    String key = ctx.getCurrentKey();
    onTick(new Tick<>() {
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
      public void emit(OUT value) {
        out.collect(value);
      }

      @Override
      public void anomaly(Anomaly a) {
        if (a != null) {
          ctx.output(ANOMALIES, a);
        }
      }

      @Override
      public void deadLetter(DeadLetter d) {
        if (d != null) {
          ctx.output(REJECTED, d);
        }
      }

      @Override
      public void scheduleTick(long tickEnd) {
        if (tickEnd > end) {
          ctx.timerService().registerEventTimeTimer(tickEnd - 1 + latenessMs);
        }
      }
    }, l);
  }
}
