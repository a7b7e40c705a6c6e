package io.fleetscope.flink.core;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.DeadLetters;
import io.fleetscope.flink.io.WallClock;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First operator after each source: passes valid records of the topic's class, sends undecodable
 * and invalid ones to {@link #REJECTED} as DeadLetters (metric {@code rejectedRecords}, one log
 * line per rejection at most every 10 s per topic and subtask, with the running count).
 */
public final class ValidateRecords<T extends SpecificRecord> extends ProcessFunction<SpecificRecord, T> {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(ValidateRecords.class);
  public static final OutputTag<DeadLetter> REJECTED = new OutputTag<>("rejected", AvroTypeInfo.forClass(DeadLetter.class));

  private final String topic;
  private final Class<T> valueClass;
  private final RecordValidator validator;
  private final WallClock clock;
  private transient Counter rejected;
  private transient long lastLog;
  private transient long count;

  public ValidateRecords(String topic, Class<T> valueClass, RecordValidator validator, WallClock clock) {
    this.topic = topic;
    this.valueClass = valueClass;
    this.validator = validator;
    this.clock = clock;
  }

  @Override
  public void open(OpenContext ctx) {
    rejected = getRuntimeContext().getMetricGroup().counter("rejectedRecords");
  }

  @Override
  public void processElement(SpecificRecord r, Context ctx, Collector<T> out) {
    long now = clock.now();
    DeadLetter dl;
    if (r instanceof DeadLetter d) {
      dl = d;
    } else if (!valueClass.isInstance(r)) {
      dl = DeadLetters.rejected(topic, r, "record of class " + r.getClass().getSimpleName() + " on " + topic, now);
    } else {
      String reason = validator.check(r, now);
      if (reason == null) {
        out.collect(valueClass.cast(r));
        return;
      }
      dl = DeadLetters.rejected(topic, r, reason, now);
    }
    rejected.inc();
    count++;
    long wall = System.currentTimeMillis();
    if (wall - lastLog > 10_000) {
      lastLog = wall;
      log.warn("record rejected topic={} key={} reason=\"{}\" rejected_total={}", topic, dl.getKey(), dl.getReason(), count);
    }
    ctx.output(REJECTED, dl);
  }
}
