package io.fleetscope.flink.core;

import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Second stage after a {@code TickedKeyedFunction}: gathers the intermediate records of one tick
 * (they carry the upstream tick's timer timestamp) and, once the watermark passes that timestamp,
 * hands them to {@link #onTick} sorted by {@link #order()}. Every upstream subtask has emitted its
 * records of the tick before it forwards the watermark, so the set and its order do not depend on
 * arrival order.
 */
public abstract class BufferedTickFunction<T, OUT> extends KeyedProcessFunction<String, T, OUT> {
  private static final long serialVersionUID = 1L;
  private final TypeInformation<T> type;
  private final String stateName;
  private transient TimedBuffer<T> pending;

  protected BufferedTickFunction(TypeInformation<T> type, String stateName) {
    this.type = type;
    this.stateName = stateName;
  }

  /** Total order of one tick's records (must not depend on arrival order). */
  protected abstract Comparator<T> order();

  protected abstract void onTick(long timestamp, List<T> records, OnTimerContext ctx, Collector<OUT> out)
      throws Exception;

  protected void openState() throws Exception {}

  /**
   * An extra event time at which {@link #onTime} must run for this record (e.g. the deadline of a
   * checkpoint that should have finished by then), or -1. Registered when the record arrives, so
   * it also fires in BATCH execution, where timers registered while timers fire are not honoured.
   */
  protected long deadlineOf(T value) {
    return -1;
  }

  /**
   * Called at every timer of this key after its tick (if any) was handled, including the
   * deadlines of {@link #deadlineOf}.
   */
  protected void onTime(long timestamp, OnTimerContext ctx, Collector<OUT> out) throws Exception {}

  @Override
  public final void open(OpenContext ctx) throws Exception {
    pending = TimedBuffer.open(getRuntimeContext(), stateName + "-buffered", type);
    openState();
  }

  @Override
  public final void processElement(T value, Context ctx, Collector<OUT> out) throws Exception {
    long at = ctx.timestamp();
    pending.add(at, value);
    ctx.timerService().registerEventTimeTimer(at);
    long deadline = deadlineOf(value);
    if (deadline > ctx.timerService().currentWatermark()) {
      ctx.timerService().registerEventTimeTimer(deadline);
    }
  }

  @Override
  public final void onTimer(long timestamp, OnTimerContext ctx, Collector<OUT> out) throws Exception {
    List<T> l = pending.take(timestamp);
    if (l != null) {
      l.sort(order());
      onTick(timestamp, l, ctx, out);
    }
    onTime(timestamp, ctx, out);
  }
}
