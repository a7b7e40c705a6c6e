package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.OutputRouting;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * What an analytic writes. Every record goes to the topic of its class ({@link OutputRouting}): derived
 * records (RailBandwidth -> fleet.rail.bw.v1, EccTrend, ThermalRisk, CheckpointSlo), anomalies
 * (fleet.anomalies.v1) and dead letters (fleet.dlq.v1).
 */
public final class AnalyticOutputs {
  private final List<DataStream<SpecificRecord>> parts = new ArrayList<>();
  /** The fast paths' anomalies: to a sink of their own in a streaming run (see {@link #fastUnion}). */
  private final List<DataStream<SpecificRecord>> fastParts = new ArrayList<>();
  /** Prefix of the uids of the output mappers added next: the analytic's name, or the stage's. */
  private String uidPrefix = "pipeline";

  /** Whether the job runs in streaming mode (in batch mode no output waits for a buffer timeout). */
  private final boolean streaming;

  AnalyticOutputs(boolean streaming) {
    this.streaming = streaming;
  }

  void uidPrefix(String prefix) {
    this.uidPrefix = prefix;
  }

  /** Derived records of a topic in {@link OutputRouting}. */
  public void derived(DataStream<? extends SpecificRecord> s) {
    add(s, "derived");
  }

  /**
   * Anomalies. In a streaming run their mapper hands each record on to the sink at once instead of
   * after the network buffer timeout (100 ms by default): anomalies are few, and a page should not
   * wait for a buffer to fill.
   */
  public void anomalies(DataStream<Anomaly> s) {
    SingleOutputStreamOperator<SpecificRecord> m = add(s, "anomalies");
    if (streaming) {
      m.setBufferTimeout(0);
    }
  }

  /**
   * Anomalies of a fast path ({@link ArrivalFunction}): like {@link #anomalies}, but kept apart from
   * the other outputs, so that in a streaming run they reach Kafka through a sink operator of their
   * own. A sink shared with the windowed stages waits, at every checkpoint, for the barriers of all
   * its inputs; behind backpressured windowed stages that wait lasts as long as the checkpoint
   * (tens of seconds at 20,000 GPUs), and a page would wait with it.
   */
  public void fastAnomalies(DataStream<Anomaly> s) {
    String n = uidPrefix + "-out-fast-anomalies-" + fastParts.size();
    SingleOutputStreamOperator<SpecificRecord> m = s.map(r -> (SpecificRecord) r).returns(AvroTypeInfo.anyRecord()).name(n).uid(n);
    if (streaming) {
      m.setBufferTimeout(0);
    }
    fastParts.add(m);
  }

  public void deadLetters(DataStream<DeadLetter> s) {
    add(s, "dlq");
  }

  /** The anomalies, late and rejected records of an operator built on {@link TickedKeyedFunction}. */
  public void sideOutputsOf(SingleOutputStreamOperator<?> op) {
    anomalies(op.getSideOutput(TickedKeyedFunction.ANOMALIES));
    deadLetters(op.getSideOutput(TickedKeyedFunction.LATE));
    deadLetters(op.getSideOutput(TickedKeyedFunction.REJECTED));
  }

  private SingleOutputStreamOperator<SpecificRecord> add(DataStream<? extends SpecificRecord> s, String what) {
    String n = uidPrefix + "-out-" + what + "-" + parts.size();
    SingleOutputStreamOperator<SpecificRecord> m = s.map(r -> (SpecificRecord) r).returns(AvroTypeInfo.anyRecord()).name(n).uid(n);
    parts.add(m);
    return m;
  }

  /** Everything the analytics produced except the fast paths' anomalies, as one stream; null if nothing. */
  DataStream<SpecificRecord> union() {
    return unionOf(parts);
  }

  /** The fast paths' anomalies as one stream; null if no analytic has a fast path. */
  DataStream<SpecificRecord> fastUnion() {
    return unionOf(fastParts);
  }

  @SuppressWarnings("unchecked")
  private static DataStream<SpecificRecord> unionOf(List<DataStream<SpecificRecord>> l) {
    if (l.isEmpty()) {
      return null;
    }
    if (l.size() == 1) {
      return l.get(0);
    }
    return l.get(0).union(l.subList(1, l.size()).toArray(new DataStream[0]));
  }

}
