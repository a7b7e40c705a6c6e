package io.fleetscope.flink.rail;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.RailBandwidth;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Per-rail bandwidth: fleet.ib.v1 -> per-port windows (in the shared IB node stage) (rates from counter deltas, port anomalies)
 * -> per (cluster, rail) RailBandwidth on fleet.rail.bw.v1 with imbalance; fleet.inventory.v1 ->
 * shared-HCA layouts. Alerts: IbLinkDegraded, IbSymbolErrors, RoceCongestion, RailImbalance; IbLinkDown
 * per sample as it arrives ({@link LinkDownFunction}, uid {@code rail-fast}, on the fast path's own
 * reader of fleet.ib.v1), without waiting for the window or the watermark.
 */
public final class RailBandwidthAnalytic implements Analytic {
  public static final String NAME = "rail";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    RailConfig rc = cfg.section("rail", RailConfig.class);
    DataStream<PortWindow> ports = in.ibNodes(new PortWindowFunction(rc, NAME));
    SingleOutputStreamOperator<RailBandwidth> rails = ports
        .keyBy(w -> w.cluster, Types.STRING)
        .process(new RailWindowFunction(rc, NAME), AvroTypeInfo.forClass(RailBandwidth.class))
        .name("rail-bandwidth").uid("rail-bandwidth");
    out.derived(rails);
    out.anomalies(rails.getSideOutput(io.fleetscope.flink.core.TickedKeyedFunction.ANOMALIES));
    SingleOutputStreamOperator<Anomaly> layout = in.inventory()
        .keyBy(InventoryRecord::getId, Types.STRING)
        .process(new RailLayoutFunction(NAME), AvroTypeInfo.forClass(Anomaly.class))
        .name("rail-layout").uid("rail-layout");
    out.anomalies(layout);
    // the fast path: a link going down (and back up) per sample as it arrives
    SingleOutputStreamOperator<Anomaly> links = in.arrivals(IbPortSample.class)
        .keyBy(LinkDownFunction::keyOf, Types.STRING).connect(in.topology())
        .process(new LinkDownFunction(NAME).holdingForInventory(in.inventoryHoldMs()), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-fast").uid(NAME + "-fast");
    out.fastAnomalies(links);
  }
}
