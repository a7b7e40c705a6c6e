package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import io.fleetscope.flink.io.WallClock;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * A {@link WholeNodeAnalytic} in a keyed operator of its own, keyed by {@code cluster|node-or-device}
 * ({@link NodeKeySelector}): for the device streams, which have no node stage (fleet.pdu.v1,
 * fleet.coolant.v1), and for an analytic of a node stream that has run in an operator of its own
 * since before the node stages (ckpt's XIDs: a move would drop its operator's uid). It is a
 * {@link TickedKeyedFunction}: the same ticks, lateness and side outputs, with late records named
 * after the analytic. Each tick is handed over whole (an
 * analytic that folds slices gets no {@code onSlice}); the unit's state is the keyed state
 * {@code unit}, registered when the analytic first asks for it.
 */
public final class KeyedAnalyticFunction<IN extends SpecificRecord, OUT, S extends Serializable>
    extends TickedKeyedFunction<IN, OUT> {
  private static final long serialVersionUID = 1L;
  private final WholeNodeAnalytic<IN, OUT, S> analytic;
  private transient ValueState<S> unit;

  public KeyedAnalyticFunction(WholeNodeAnalytic<IN, OUT, S> analytic, PipelineConfig pipeline, WallClock clock) {
    super(analytic.topic(), inputType(analytic.inputs()), analytic.tickMs(), pipeline, clock);
    this.analytic = analytic;
  }

  /** The Avro type of the analytic's input classes (ordered by name, so the state's type is stable). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static <IN extends SpecificRecord> TypeInformation<IN> inputType(Set<Class<? extends SpecificRecord>> inputs) {
    if (inputs.size() == 1) {
      return (TypeInformation<IN>) AvroTypeInfo.forClass((Class) inputs.iterator().next());
    }
    Class[] sorted = inputs.stream().sorted(Comparator.comparing(Class::getName)).toArray(Class[]::new);
    return (TypeInformation<IN>) (TypeInformation) AvroTypeInfo.anyOf(sorted);
  }

  /** The device streams (fleet.pdu.v1, fleet.coolant.v1): a device's backlog after an outage is evaluated on its own clock. */
  @Override
  protected boolean catchesUp() {
    return io.fleetscope.schemas.Topics.PDU.equals(analytic.topic()) || io.fleetscope.schemas.Topics.COOLANT.equals(analytic.topic());
  }

  @Override
  protected String analyticName() {
    return analytic.name();
  }

  @Override
  protected void onTick(Tick<OUT> tick, List<IN> records) throws Exception {
    analytic.onTick(new KeyTick<>(tick), records, new NodeAnalytic.UnitState<>() {
      @Override
      public S value() {
        try {
          return state().value();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void update(S value) {
        try {
          state().update(value);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    });
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private ValueState<S> state() {
    if (unit == null) {
      unit = getRuntimeContext().getState(new ValueStateDescriptor<>("unit",
          (TypeInformation<S>) new JavaSerializableTypeInfo(Serializable.class)));
    }
    return unit;
  }

  /** The tick of the key's one unit: the node (or device) is the key read back. */
  private static final class KeyTick<OUT> implements NodeAnalytic.UnitTick<String, OUT> {
    private final Tick<OUT> tick;

    KeyTick(Tick<OUT> tick) {
      this.tick = tick;
    }

    @Override
    public NodeKey node() {
      return NodeKey.parse(tick.key());
    }

    @Override
    public String unit() {
      return NodeAnalytic.NODE;
    }

    @Override
    public long end() {
      return tick.end();
    }

    @Override
    public String key() {
      return tick.key();
    }

    @Override
    public Topology topology() {
      return tick.topology();
    }

    @Override
    public void emit(OUT value) {
      tick.emit(value);
    }

    @Override
    public void anomaly(Anomaly a) {
      tick.anomaly(a);
    }

    @Override
    public void scheduleTick(long tickEnd) {
      tick.scheduleTick(tickEnd);
    }

    @Override
    public void deadLetter(DeadLetter d) {
      tick.deadLetter(d);
    }
  }
}
