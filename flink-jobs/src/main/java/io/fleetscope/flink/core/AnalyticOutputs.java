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

  /** Everything the analytics produced, as one stream. */
  DataStream<SpecificRecord> union() {
    if (parts.isEmpty()) {
      throw new IllegalStateException("no analytic produced any output");
    }
    DataStream<SpecificRecord> first = parts.get(0);
    if (parts.size() == 1) {
      return first;
    }
    @SuppressWarnings("unchecked")
    DataStream<SpecificRecord>[] rest = parts.subList(1, parts.size()).toArray(new DataStream[0]);
    return first.union(rest);
  }
}
