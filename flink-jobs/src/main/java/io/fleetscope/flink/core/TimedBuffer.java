package io.fleetscope.flink.core;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;

/**
 * A key's values waiting for an event time (a tick's end, a timer), in keyed list state: one append
 * per value, whatever the state backend. A map from time to a list of values costs a read and a
 * rewrite of the whole list per value on RocksDB, quadratic in a tick's values, and a tick keyed by
 * cluster holds thousands of them. Taking a time's values reads the key's list once and writes back
 * what waits for later times.
 */
public final class TimedBuffer<T> {
  private final ListState<Tuple2<Long, T>> state;

  private TimedBuffer(ListState<Tuple2<Long, T>> state) {
    this.state = state;
  }

  /** The buffer named {@code name} of the current key. */
  public static <T> TimedBuffer<T> open(RuntimeContext rc, String name, TypeInformation<T> type) {
    return new TimedBuffer<>(rc.getListState(new ListStateDescriptor<>(name, Types.TUPLE(Types.LONG, type))));
  }

  public void add(long at, T value) throws Exception {
    state.add(Tuple2.of(at, value));
  }

  /** The distinct times after {@code after} and up to {@code upTo} that values wait for, ascending. */
  public java.util.SortedSet<Long> times(long after, long upTo) throws Exception {
    java.util.TreeSet<Long> out = new java.util.TreeSet<>();
    Iterable<Tuple2<Long, T>> all = state.get();
    if (all != null) {
      for (Tuple2<Long, T> e : all) {
        if (e.f0 > after && e.f0 <= upTo) {
          out.add(e.f0);
        }
      }
    }
    return out;
  }

  /** Removes and returns the values waiting for {@code at}, in arrival order (null when there are none). */
  public List<T> take(long at) throws Exception {
    Iterable<Tuple2<Long, T>> all = state.get();
    if (all == null) {
      return null;
    }
    List<T> due = null;
    List<Tuple2<Long, T>> later = null;
    for (Tuple2<Long, T> e : all) {
      if (e.f0 == at) {
        if (due == null) {
          due = new ArrayList<>();
        }
        due.add(e.f1);
      } else {
        if (later == null) {
          later = new ArrayList<>();
        }
        later.add(e);
      }
    }
    if (due != null) {
      if (later == null) {
        state.clear();
      } else {
        state.update(later);
      }
    }
    return due;
  }
}
