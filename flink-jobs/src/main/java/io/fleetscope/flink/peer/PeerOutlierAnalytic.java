package io.fleetscope.flink.peer;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Peer outliers: per window, GPUs against the GPUs of their job (else rack and model) and ports
 * against the ports of their rail, by robust z-score for a sustained number of windows:
 * GpuPeerOutlier and LinkPeerOutlier. Config section {@code peer}.
 */
public final class PeerOutlierAnalytic implements Analytic {
  public static final String NAME = "peer";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    PeerOutlierSettings c = cfg.section("peer", PeerOutlierSettings.class);
    TypeInformation<PeerInput> ti = TypeInformation.of(PeerInput.class);
    DataStream<PeerInput> gpus = in.gpuNodes(new GpuPeerInputFunction(c));
    DataStream<PeerInput> links = in.ibNodes(new LinkPeerInputFunction(c));
    SingleOutputStreamOperator<Anomaly> outliers = gpus.union(links)
        .keyBy(PeerInput::groupKey, Types.STRING)
        .process(new PeerWindowFunction(c, NAME), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-groups").uid(NAME + "-groups");
    out.anomalies(outliers);
  }
}
