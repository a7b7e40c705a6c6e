package io.fleetscope.flink.core;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.OutputSink;
import io.fleetscope.flink.io.TelemetrySource;
import io.fleetscope.schemas.Topics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every analytic in one StreamExecutionEnvironment. Source and sink come by constructor:
 * Kafka in production, a JSON-lines file in analyze, collections in tests. For each raw topic:
 * source, with timestamps from {@code ts} and bounded-out-of-orderness watermarks with idleness per
 * partition ({@link TelemetryWatermarks}) -> {@link ValidateRecords} (bad records to fleet.dlq.v1) -> {@link JobInputs}; then each
 * {@link AnalyticJob} builds on them and all outputs go to the sink.
 */
public final class FleetAnalytics {
  private static final Logger log = LoggerFactory.getLogger(FleetAnalytics.class);

  /** The raw topics every run reads. */
  public static final List<String> RAW_TOPICS = List.of(
      Topics.GPU, Topics.GPU_XID, Topics.IB, Topics.PDU, Topics.COOLANT, Topics.CKPT, Topics.INVENTORY, Topics.JOBS);

  private final TelemetrySource source;
  private final OutputSink sink;
  private final AnalyticsConfig config;
  private final List<AnalyticJob> jobs;
  private final WallClock clock;

  public FleetAnalytics(TelemetrySource source, OutputSink sink, AnalyticsConfig config, List<AnalyticJob> jobs, WallClock clock) {
    this.source = source;
    this.sink = sink;
    this.config = config;
    this.jobs = List.copyOf(jobs);
    this.clock = clock;
  }

  /** Builds the whole pipeline into {@code env} and attaches the sink; returns the output stream. */
  public DataStream<SpecificRecord> build(StreamExecutionEnvironment env) {
    PipelineConfig p = config.pipeline();
    env.getConfig().enableObjectReuse();
    RecordValidator validator = new RecordValidator(p);
    JobOutputs out = new JobOutputs();
    Map<Class<?>, DataStream<? extends SpecificRecord>> streams = new LinkedHashMap<>();
    for (String t : RAW_TOPICS) {
      Topics.TopicSpec spec = Topics.require(t);
      streams.put(spec.valueClass(), validated(env, spec, validator, p, out));
    }
    JobInputs in = new JobInputs(env, streams, p, clock);
    for (AnalyticJob j : jobs) {
      out.currentJob(j.name());
      j.build(in, out, config);
      log.info("analytic built name={}", j.name());
    }
    out.currentJob("node");
    in.nodeOperators().forEach(out::sideOutputsOf);
    DataStream<SpecificRecord> all = out.union();
    sink.attach(all);
    return all;
  }

  private <T extends SpecificRecord> DataStream<T> validated(StreamExecutionEnvironment env, Topics.TopicSpec spec,
      RecordValidator validator, PipelineConfig p, JobOutputs out) {
    @SuppressWarnings("unchecked")
    Class<T> cls = (Class<T>) spec.valueClass();
    // timestamps and watermarks come from the source, per partition (TelemetryWatermarks)
    DataStream<SpecificRecord> raw = source.open(env, spec, TelemetryWatermarks.strategy(p, spec.name(), validator, clock));
    SingleOutputStreamOperator<T> valid = raw
        .process(new ValidateRecords<>(spec.name(), cls, validator, clock), AvroTypeInfo.forClass(cls))
        .name("validate-" + spec.name()).uid("validate-" + spec.name());
    out.currentJob("validate-" + spec.name());
    DataStream<DeadLetter> rejected = valid.getSideOutput(ValidateRecords.REJECTED);
    out.deadLetters(rejected);
    return valid;
  }
}
