package io.fleetscope.flink.ecc;

import io.fleetscope.avro.EccTrend;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.flink.core.AnalyticJob;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.JobInputs;
import io.fleetscope.flink.core.JobOutputs;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * ECC trends: fleet.gpu.v1 + fleet.gpu.xid.v1 -> EccTrend on fleet.ecc.trend.v1 per GPU and tick;
 * alerts GpuEccUncorrectable, GpuEccCorrectableRising, GpuRowRemapFailure, GpuXid.
 */
public final class EccTrendJob implements AnalyticJob {
  public static final String NAME = "ecc";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(JobInputs in, JobOutputs out, AnalyticsConfig cfg) {
    EccConfig ec = cfg.section("ecc", EccConfig.class);
    XidCatalog xids = XidCatalog.load();
    AvroTypeInfo<SpecificRecord> both = AvroTypeInfo.anyOf(GpuSample.class, GpuXid.class);
    DataStream<SpecificRecord> gpu = in.gpu().map(r -> (SpecificRecord) r).returns(both).name("ecc-gpu").uid("ecc-gpu");
    DataStream<SpecificRecord> xid = in.gpuXid().map(r -> (SpecificRecord) r).returns(both).name("ecc-xid").uid("ecc-xid");
    SingleOutputStreamOperator<EccTrend> trends = gpu.union(xid)
        .keyBy(EccFunction::keyOf, Types.STRING)
        .connect(in.topology())
        .process(new EccFunction(ec, xids, in.pipeline(), in.clock(), NAME), AvroTypeInfo.forClass(EccTrend.class))
        .name("ecc-trend").uid("ecc-trend");
    out.derived(trends);
    out.sideOutputsOf(trends);
  }
}
