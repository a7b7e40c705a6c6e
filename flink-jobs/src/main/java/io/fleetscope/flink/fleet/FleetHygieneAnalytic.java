package io.fleetscope.flink.fleet;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.PduReading;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.KeyedAnalyticFunction;
import io.fleetscope.flink.core.NodeKeySelector;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.schemas.Topics;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Fleet hygiene: JobMixedGpuModels (fleet.jobs.v1 with the inventory's GPU models, keyed by job)
 * and TelemetryStale (heartbeats of every node on fleet.gpu.v1 / fleet.ib.v1, from their node stages, and every device on
 * fleet.pdu.v1 / fleet.coolant.v1, keyed by cluster). Config section {@code fleet}.
 */
public final class FleetHygieneAnalytic implements Analytic {
  public static final String NAME = "fleet";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    FleetHygieneSettings c = cfg.section("fleet", FleetHygieneSettings.class);
    TypeInformation<FleetInput> ti = TypeInformation.of(FleetInput.class);

    SingleOutputStreamOperator<FleetInput> allocations = in.jobs()
        .keyBy(JobAllocationFunction::keyOf, Types.STRING).connect(in.topology())
        .process(new JobAllocationFunction(c, in.pipeline(), in.clock()), ti)
        .name(NAME + "-allocations").uid(NAME + "-allocations");
    out.sideOutputsOf(allocations);
    SingleOutputStreamOperator<Anomaly> mixed = allocations
        .keyBy(f -> f.cluster + "|" + f.job, Types.STRING)
        .process(new JobMixFunction(c, NAME), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-mixed-models").uid(NAME + "-mixed-models");
    out.anomalies(mixed);

    DataStream<FleetInput> beats = in.gpuNodes(new HeartbeatFunction<>(Topics.GPU, GpuSample.class, "gpu", true, c))
        .union(in.ibNodes(new HeartbeatFunction<>(Topics.IB, IbPortSample.class, "ib", true, c)),
            deviceHeartbeats(in.pdu(), new HeartbeatFunction<>(Topics.PDU, PduReading.class, "pdu", false, c), in, out, ti),
            deviceHeartbeats(in.coolant(), new HeartbeatFunction<>(Topics.COOLANT, CoolantReading.class, "coolant", false, c),
                in, out, ti));
    SingleOutputStreamOperator<Anomaly> stale = beats
        .keyBy(f -> f.cluster, Types.STRING)
        .process(new StalenessFunction(c, NAME), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-stale").uid(NAME + "-stale");
    out.anomalies(stale);
  }

  /** The heartbeats of a device stream, keyed by device in an operator of their own. */
  private static <T extends SpecificRecord> SingleOutputStreamOperator<FleetInput> deviceHeartbeats(DataStream<T> s,
      HeartbeatFunction<T> beats, AnalyticInputs in, AnalyticOutputs out, TypeInformation<FleetInput> ti) {
    String stream = beats.stream();
    SingleOutputStreamOperator<FleetInput> op = s
        .keyBy(new NodeKeySelector<>(), Types.STRING).connect(in.topology())
        .process(new KeyedAnalyticFunction<>(beats, in.pipeline(), in.clock()), ti)
        .name(NAME + "-heartbeat-" + stream).uid(NAME + "-heartbeat-" + stream);
    out.sideOutputsOf(op);
    return op;
  }
}
