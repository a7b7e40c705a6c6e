package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.ecc.EccTrendAnalytic;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.OutputSink;
import io.fleetscope.flink.io.TelemetrySource;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fast path's latency in a live (streaming) run, without Kafka: a paced fleet.gpu.v1 (1,000
 * samples/s, each stamped with the wall time it is due) in which one GPU reports an uncorrectable
 * ECC error 10 s in; fleet.ib.v1 runs an hour behind (its watermark would hold any stage that
 * waits for it), fleet.gpu.xid.v1 and the other topics are silent. A heavy windowed stage on
 * fleet.gpu.v1 (2 ms per sample: half the input rate) backpressures the shared source. Measured:
 * wall time from the sample being due to its anomaly leaving the analytics.
 */
class FastPathLatencyITCase {
  private static final Logger log = LoggerFactory.getLogger(FastPathLatencyITCase.class);
  private static final int RATE_PER_S = 1000;
  private static final int UNITS = 64;
  private static final int FAULTY_UNIT = 5;
  private static final long FAULT_INDEX = 10L * RATE_PER_S + FAULTY_UNIT;
  private static final long RECORDS = 20L * RATE_PER_S;

  /** Per run: when the schedule started (wall ms), and when the fault's anomaly came out. */
  static final Map<String, AtomicLong> START = new ConcurrentHashMap<>();
  static final Map<String, Long> ANOMALY_AT = new ConcurrentHashMap<>();

  @Test
  void aHardFaultLeavesWithinASecondOfItsSampleWhateverTheOtherInputsAndStagesDo() throws Exception {
    long own = run("own", true);
    long shared = run("shared", false);
    log.info("fast path latency own_sources_ms={} shared_source_ms={}", own, shared);
    assertThat(own).isBetween(0L, 1000L);
    // the shared source waits for the heavy stage: the fault's sample leaves the source seconds late
    assertThat(shared).isGreaterThan(own + 1000);
  }

  private static long run(String name, boolean ownSources) throws Exception {
    AnalyticsConfig cfg = AnalyticsConfig.fromYaml("""
        pipeline:
          parallelism: 1
          fast_path_own_sources: %s
        """.formatted(ownSources));
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_PORT, "0");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    START.put(name, new AtomicLong());
    new FleetAnalytics(new PacedSource(name), new Stamping(name), cfg, List.of(new EccTrendAnalytic(), new HeavyStage()),
        WallClock.system()).build(env);
    JobClient job = env.executeAsync("fast-path-latency-" + name);
    try {
      long deadline = System.currentTimeMillis() + 120_000;
      while (!ANOMALY_AT.containsKey(name) && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
    } finally {
      job.cancel().get();
    }
    assertThat(ANOMALY_AT).as("the fault's anomaly in run " + name).containsKey(name);
    long due = START.get(name).get() + FAULT_INDEX * 1000 / RATE_PER_S;
    return ANOMALY_AT.get(name) - due;
  }

  /** A windowed stage that needs 2 ms per GPU sample, behind a shuffle: half the input rate. */
  static final class HeavyStage implements Analytic {
    @Override
    public String name() {
      return "heavy";
    }

    @Override
    public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
      out.anomalies(in.gpu().keyBy(GpuSample::getNode, Types.STRING)
          .flatMap((GpuSample s, Collector<Anomaly> o) -> Thread.sleep(2))
          .returns(AvroTypeInfo.forClass(Anomaly.class)).name("heavy").uid("heavy"));
    }
  }

  /** Records every output; notes when the faulty GPU's GpuEccUncorrectable came out. */
  static final class Stamping implements OutputSink {
    private final String run;

    Stamping(String run) {
      this.run = run;
    }

    @Override
    public void attach(DataStream<SpecificRecord> outputs) {
      String r = run;
      outputs.map(x -> {
        if (x instanceof Anomaly a && "GpuEccUncorrectable".equals(a.getLabels().get("alertname"))) {
          ANOMALY_AT.putIfAbsent(r, System.currentTimeMillis());
        }
        return x;
      }).returns(AvroTypeInfo.anyRecord()).name("stamp").uid("stamp")
          .sinkTo(new DiscardingSink<>()).name("discard").uid("discard");
    }
  }

  /** Every reader of a topic follows one schedule (shared start): as if reading one Kafka topic. */
  static final class PacedSource implements TelemetrySource {
    private final String run;

    PacedSource(String run) {
      this.run = run;
    }

    @Override
    public DataStream<SpecificRecord> open(StreamExecutionEnvironment env, Topics.TopicSpec topic,
        WatermarkStrategy<SpecificRecord> watermarks) {
      return openReader(env, topic, watermarks, "main");
    }

    @Override
    public DataStream<SpecificRecord> openReader(StreamExecutionEnvironment env, Topics.TopicSpec topic,
        WatermarkStrategy<SpecificRecord> watermarks, String reader) {
      String n = reader + "-" + topic.name();
      return env.fromSequence(0, RECORDS - 1).uid("seq-" + n).setParallelism(1)
          .flatMap(new Paced(run, topic.name())).returns(AvroTypeInfo.anyOf(topic.valueClass(), DeadLetter.class))
          .name("paced-" + n).uid("paced-" + n).setParallelism(1)
          .assignTimestampsAndWatermarks(watermarks).name("wm-" + n).uid("wm-" + n).setParallelism(1);
    }

    @Override
    public boolean bounded() {
      return false;
    }
  }

  /** Index i is due at start + i ms; emits what the topic carries then (often nothing). */
  static final class Paced implements FlatMapFunction<Long, SpecificRecord> {
    private final String run;
    private final String topic;

    Paced(String run, String topic) {
      this.run = run;
      this.topic = topic;
    }

    @Override
    public void flatMap(Long i, Collector<SpecificRecord> out) throws Exception {
      AtomicLong start = START.get(run);
      start.compareAndSet(0, System.currentTimeMillis());
      long due = start.get() + i * 1000 / RATE_PER_S;
      long wait = due - System.currentTimeMillis();
      if (wait > 0) {
        Thread.sleep(wait);
      }
      int unit = (int) (i % UNITS);
      switch (topic) {
        case Topics.GPU -> out.collect(Fleet.gpu("n" + unit / 8, unit % 8, due, i)
            .setEccDbeTotal(unit == FAULTY_UNIT && i >= FAULT_INDEX ? 1L : 0L).build());
        case Topics.IB -> {
          if (i % 10 == 0) { // an hour behind
            IbPortSample s = Fleet.ib("n" + unit / 8, 0, due - 3_600_000, i).build();
            out.collect(s);
          }
        }
        case Topics.INVENTORY -> {
          if (i < 8) {
            InventoryRecord r = Fleet.node("n" + i, "r1", 8, 1, due - 60_000);
            out.collect(r);
          }
        }
        default -> { } // silent, but running
      }
    }
  }
}
