package io.fleetscope.flink.ecc;

import io.fleetscope.avro.EccTrend;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * ECC trends: fleet.gpu.v1 + fleet.gpu.xid.v1 (in the shared node stage) -> EccTrend on fleet.ecc.trend.v1 per GPU and tick;
 * alerts GpuEccUncorrectable, GpuEccCorrectableRising, GpuRowRemapFailure, GpuXid.
 */
public final class EccTrendAnalytic implements Analytic {
  public static final String NAME = "ecc";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    EccConfig ec = cfg.section("ecc", EccConfig.class);
    XidCatalog xids = XidCatalog.load();
    DataStream<EccTrend> trends = in.gpuNodes(new EccFunction(ec, xids, NAME));
    out.derived(trends);
  }
}
