package io.fleetscope.flink.ecc;

import io.fleetscope.avro.EccTrend;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * ECC trends: fleet.gpu.v1 + fleet.gpu.xid.v1 (in the shared node stage) -> EccTrend on fleet.ecc.trend.v1 per GPU and tick;
 * alert GpuEccCorrectableRising. The hard faults GpuEccUncorrectable, GpuRowRemapFailure and GpuXid
 * are decided per record as they arrive ({@link EccHardFaultFunction}, uid {@code ecc-fast}, on the
 * fast path's own readers of the two topics), without waiting for the tick or the watermark.
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
    // the fast path: uncorrectable errors, row remaps and XIDs per record as they arrive
    AvroTypeInfo<SpecificRecord> both = AvroTypeInfo.anyOf(GpuSample.class, GpuXid.class);
    DataStream<SpecificRecord> samples = in.arrivals(GpuSample.class).map(r -> (SpecificRecord) r).returns(both)
        .name(NAME + "-fast-in-gpu").uid(NAME + "-fast-in-gpu");
    DataStream<SpecificRecord> events = in.arrivals(GpuXid.class).map(r -> (SpecificRecord) r).returns(both)
        .name(NAME + "-fast-in-xid").uid(NAME + "-fast-in-xid");
    SingleOutputStreamOperator<Anomaly> faults = samples.union(events)
        .keyBy(EccHardFaultFunction::keyOf, Types.STRING).connect(in.topology())
        .process(new EccHardFaultFunction(ec, xids, NAME).holdingForInventory(in.inventoryHoldMs()), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-fast").uid(NAME + "-fast");
    out.fastAnomalies(faults);
  }
}
