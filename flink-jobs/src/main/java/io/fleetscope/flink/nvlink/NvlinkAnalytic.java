package io.fleetscope.flink.nvlink;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * NVLink: fleet.nvlink.v1 per link. NvlinkDown (a link that should be up is inactive) is decided per
 * sample as it arrives, on the fast path ({@link NvlinkDownFunction}, uid {@code nvlink-fast});
 * NvlinkErrorsRising from the error counters' rate over a sliding window with hysteresis
 * ({@link NvlinkErrorsFunction}, uid {@code nvlink-errors}). Config section {@code nvlink}.
 */
public final class NvlinkAnalytic implements Analytic {
  public static final String NAME = "nvlink";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    NvlinkSettings c = cfg.section("nvlink", NvlinkSettings.class);
    SingleOutputStreamOperator<Anomaly> down = in.arrivals(NvlinkSample.class)
        .keyBy(NvlinkDownFunction::keyOf, Types.STRING).connect(in.topology())
        .process(new NvlinkDownFunction(c, NAME).holdingForInventory(in.inventoryHoldMs()), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-fast").uid(NAME + "-fast");
    out.fastAnomalies(down);
    SingleOutputStreamOperator<Anomaly> errors = in.stream(NvlinkSample.class)
        .keyBy(NvlinkDownFunction::keyOf, Types.STRING).connect(in.topology())
        .process(new NvlinkErrorsFunction(c, NAME).holdingForInventory(in.inventoryHoldMs()), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-errors").uid(NAME + "-errors");
    out.anomalies(errors);
  }
}
