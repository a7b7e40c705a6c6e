package io.fleetscope.flink.fabric;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Lossless-fabric configuration audit: FabricConfigDrift for a RoCE port whose PFC priorities,
 * trust state, ECN enablement, CNP DSCP, DCQCN parameters or MTU (fleet.fabric.config.v1) break
 * the site policy or differ from its rail's peers, before any congestion shows it. Config section
 * {@code fabric}.
 */
public final class FabricDriftAnalytic implements Analytic {
  public static final String NAME = "fabric";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    FabricSettings c = cfg.section(NAME, FabricSettings.class);
    SingleOutputStreamOperator<Anomaly> drift = in.stream(PortConfig.class)
        .keyBy(FabricDriftFunction::keyOf, Types.STRING)
        .process(new FabricDriftFunction(c, NAME), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-drift").uid(NAME + "-drift");
    out.anomalies(drift);
  }
}
