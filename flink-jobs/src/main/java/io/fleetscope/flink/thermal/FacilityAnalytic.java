package io.fleetscope.flink.thermal;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.HardwareCatalog;
import io.fleetscope.flink.core.KeyedAnalyticFunction;
import io.fleetscope.flink.core.NodeKeySelector;
import io.fleetscope.flink.io.AvroTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Facility alerts: RackPowerOverCooling from fleet.pdu.v1 (rack kW from its PDUs against its
 * cooling capacity), CoolantFlowLow, CoolantSupplyHot and CoolantLeak from fleet.coolant.v1
 * (CoolantLeak per reading as it arrives: {@link CoolantLeakFunction}, uid {@code facility-fast}, on
 * the fast path's own reader of fleet.coolant.v1). Config section {@code facility}.
 */
public final class FacilityAnalytic implements Analytic {
  public static final String NAME = "facility";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    FacilitySettings fc = ThermalRiskAnalytic.facility(cfg, HardwareCatalog.load());
    SingleOutputStreamOperator<Anomaly> loops = in.coolant()
        .keyBy(CoolantAlertFunction::keyOf, Types.STRING).connect(in.topology())
        .process(new CoolantAlertFunction(fc, in.pipeline(), in.clock(), NAME), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-coolant").uid(NAME + "-coolant");
    out.sideOutputsOf(loops);
    // the fast path: a leak per reading as it arrives
    SingleOutputStreamOperator<Anomaly> leaks = in.arrivals(CoolantReading.class)
        .keyBy(CoolantAlertFunction::keyOf, Types.STRING).connect(in.topology())
        .process(new CoolantLeakFunction(NAME).holdingForInventory(in.inventoryHoldMs()), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-fast").uid(NAME + "-fast");
    out.fastAnomalies(leaks);

    SingleOutputStreamOperator<ThermalInput> pdus = in.pdu()
        .keyBy(new NodeKeySelector<>(), Types.STRING).connect(in.topology())
        .process(new KeyedAnalyticFunction<>(new PduInputFunction(fc, fc.tickMs()), in.pipeline(), in.clock()),
            TypeInformation.of(ThermalInput.class))
        .name(NAME + "-pdu-input").uid(NAME + "-pdu-input");
    out.sideOutputsOf(pdus);
    SingleOutputStreamOperator<Anomaly> racks = pdus
        .keyBy(i -> i.cluster + "|" + i.rack, Types.STRING)
        .process(new RackPowerFunction(fc, NAME), AvroTypeInfo.forClass(Anomaly.class))
        .name(NAME + "-rack-power").uid(NAME + "-rack-power");
    out.anomalies(racks);
  }
}
