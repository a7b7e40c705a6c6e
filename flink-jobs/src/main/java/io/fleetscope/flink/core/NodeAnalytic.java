package io.fleetscope.flink.core;

import java.io.Serializable;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/**
 * The per-node first stage of one analytic, run inside the shared {@link NodeFunction} of its raw
 * stream (one {@code keyBy(cluster|node)} for every analytic of that stream, see
 * {@link AnalyticInputs#gpuNodes} and {@link AnalyticInputs#ibNodes}). Same contract as
 * {@link TickedKeyedFunction}: the records of one <em>unit</em> (the node itself, or one GPU / port
 * of it, {@link #unitOf}) are buffered per event-time tick of {@link #tickMs()} and handed to
 * {@link #onTick} sorted by (ts, agent_seq) once the watermark has passed the tick's end plus the
 * allowed lateness; late records are counted and dead-lettered per analytic, naming this class.
 * The unit's state object ({@code S}) is part of the node's units value, which the node operator
 * reads once before it hands a slice's records to the units and writes back once after: within a
 * tick, {@code state.value()} and {@code state.update()} cost no serialization, and a change made to
 * the object in place is kept as well, on every state backend.
 *
 * Each tick names its unit by type ({@link UnitTick#node()}, {@link UnitTick#unit()}).
 *
 * @param <IN> raw record type (a common supertype when {@link #inputs()} has several classes)
 * @param <U> the unit within a node: the GPU index ({@code Integer}), a {@link PortUnit}, or
 *     {@link #NODE} for an analytic with one unit per node ({@link WholeNodeAnalytic}). The unit is
 *     saved with the node's state (Java serialization), so these classes and their names stay as
 *     they are, or a savepoint no longer restores
 * @param <OUT> the analytic's intermediate (or derived) records, emitted on {@link #output()}
 * @param <S> the unit's state (Serializable: it is checkpointed with Java serialization)
 */
public abstract class NodeAnalytic<IN extends SpecificRecord, U extends Serializable, OUT, S extends Serializable>
    implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The unit of an analytic that keeps one state per node ({@link WholeNodeAnalytic}). */
  public static final String NODE = "";

  private final String topic;
  private final long tickMs;
  private final Set<Class<? extends SpecificRecord>> inputs;
  private final TypeInformation<OUT> outType;
  private OutputTag<OUT> output;

  protected NodeAnalytic(String topic, long tickMs, TypeInformation<OUT> outType, Set<Class<? extends SpecificRecord>> inputs) {
    if (tickMs <= 0) {
      throw new IllegalArgumentException("tickMs must be > 0");
    }
    this.topic = topic;
    this.tickMs = tickMs;
    this.outType = outType;
    this.inputs = Set.copyOf(inputs);
  }

  /** The state of one unit of a node (like a ValueState scoped to the unit). */
  public interface UnitState<S> {
    S value();

    void update(S value);
  }

  /**
   * The tick of one unit: where the unit is, besides what every tick has. {@code key()} is its
   * text, {@code cluster|node}, followed by {@code |unit} for a unit other than the node.
   */
  public interface UnitTick<U, OUT> extends TickedKeyedFunction.Tick<OUT> {
    /** The node (or device) of the unit. */
    NodeKey node();

    /** The unit within the node, as {@link #unitOf} gave it. */
    U unit();
  }

  /**
   * The unit of {@code r} within its node: {@link #NODE} for one state per node, else a value with
   * equals/hashCode (a GPU index, a {@link PortUnit}); {@code toString()} completes the tick's key.
   */
  protected abstract U unitOf(IN r);

  /**
   * Whether {@code r} belongs to the unit {@code unit} (a value {@link #unitOf} returned); override
   * to compare without building the unit value.
   */
  protected boolean isUnitOf(U unit, IN r) {
    return unit.equals(unitOf(r));
  }

  /** Called once per unit and tick that has records or was scheduled, in increasing tick order. */
  protected abstract void onTick(UnitTick<U, OUT> tick, List<IN> records, UnitState<S> state) throws Exception;

  /**
   * Whether this analytic folds a tick's records into its unit state as they come, so the node
   * operator may hand them over in slices ({@link #onSlice}) instead of holding the whole tick:
   * with a tick longer than {@code pipeline.slice_ms} the operator then buffers one slice of
   * records, not a whole tick (less heap, smaller checkpoints). The slices of a tick arrive in time
   * order, each sorted like a tick, then {@link #onTick} with the last slice; so the records reach
   * the analytic in the same order as without slices. A record is late when its slice is evaluated.
   */
  protected boolean foldsSlices() {
    return false;
  }

  /**
   * Called for each slice of a tick but its last (only when {@link #foldsSlices()}), with the
   * slice's records sorted; {@code tick.end()} is the end of the tick the slice belongs to. Every
   * unit that got a slice gets its {@link #onTick}, with or without records of its own.
   */
  protected void onSlice(UnitTick<U, OUT> tick, List<IN> records, UnitState<S> state) throws Exception {
    throw new UnsupportedOperationException(name() + " does not fold slices");
  }

  /** The slice length this analytic is run with when the pipeline's slice is {@code sliceMs}. */
  public final long sliceMs(long sliceMs) {
    return foldsSlices() && sliceMs > 0 && sliceMs < tickMs && tickMs % sliceMs == 0 ? sliceMs : tickMs;
  }

  /** The analytic's name in the dead letters of late records ({@code analytic=...}). */
  public String name() {
    return getClass().getSimpleName();
  }

  /** Topic named by the dead letters of late records. */
  public final String topic() {
    return topic;
  }

  public final long tickMs() {
    return tickMs;
  }

  public final long tickEndOf(long ts) {
    return Math.floorDiv(ts, tickMs) * tickMs + tickMs;
  }

  /** Record classes this analytic reads. */
  public final Set<Class<? extends SpecificRecord>> inputs() {
    return inputs;
  }

  public final TypeInformation<OUT> outType() {
    return outType;
  }

  /** Side output of the node operator that carries this analytic's records (set when it joins a stage). */
  public final OutputTag<OUT> output() {
    return output;
  }

  final void output(String id) {
    this.output = new OutputTag<>(id, outType);
  }

  /**
   * Unit of an HCA port within a node ({@code device|port}). Saved in the node's state: it stays
   * nested here, under this name.
   */
  public record PortUnit(String device, int port) implements Serializable {
    /** Whether a sample of this device and port belongs to this unit (no allocation). */
    public boolean is(CharSequence device, int port) {
      return this.port == port && this.device.contentEquals(device);
    }

    @Override
    public String toString() {
      return device + "|" + port;
    }
  }
}
