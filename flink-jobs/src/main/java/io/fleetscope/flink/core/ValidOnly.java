package io.fleetscope.flink.core;

import io.fleetscope.flink.io.WallClock;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * The records of a second reader of a raw topic that {@link ValidateRecords} accepts; the others
 * are dropped silently, as the first reader's {@link ValidateRecords} already sends each of them to
 * fleet.dlq.v1 (once, not once per reader).
 */
final class ValidOnly<T extends SpecificRecord> implements FlatMapFunction<SpecificRecord, T> {
  private static final long serialVersionUID = 1L;
  private final Class<T> valueClass;
  private final RecordValidator validator;
  private final WallClock clock;

  ValidOnly(Class<T> valueClass, RecordValidator validator, WallClock clock) {
    this.valueClass = valueClass;
    this.validator = validator;
    this.clock = clock;
  }

  @Override
  public void flatMap(SpecificRecord r, Collector<T> out) {
    if (valueClass.isInstance(r) && validator.check(r, clock.now()) == null) {
      out.collect(valueClass.cast(r));
    }
  }
}
