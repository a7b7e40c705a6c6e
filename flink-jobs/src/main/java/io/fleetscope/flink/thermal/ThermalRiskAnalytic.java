package io.fleetscope.flink.thermal;

import io.fleetscope.avro.ThermalRisk;
import io.fleetscope.flink.core.Analytic;
import io.fleetscope.flink.core.AnalyticInputs;
import io.fleetscope.flink.core.AnalyticOutputs;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.HardwareCatalog;
import io.fleetscope.flink.core.KeyedAnalyticFunction;
import io.fleetscope.flink.core.NodeKeySelector;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.AvroTypeInfo;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Thermal-throttle risk: fleet.gpu.v1 (in the shared node stage) + fleet.pdu.v1 and fleet.coolant.v1 (keyed by
 * device), each looked up in the inventory broadcast, meet keyed by rack; per GPU a ThermalRisk on
 * fleet.thermal.risk.v1 (score, level, seconds to slowdown, main driver) and the anomalies
 * GpuThermalThrottleRisk and GpuThrottling. Config sections {@code thermal} and {@code facility}.
 */
public final class ThermalRiskAnalytic implements Analytic {
  public static final String NAME = "thermal";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void build(AnalyticInputs in, AnalyticOutputs out, AnalyticsConfig cfg) {
    ThermalRiskSettings tc = cfg.section("thermal", ThermalRiskSettings.class);
    HardwareCatalog catalog = HardwareCatalog.load();
    FacilitySettings fc = facility(cfg, catalog);
    TypeInformation<ThermalInput> ti = TypeInformation.of(ThermalInput.class);

    DataStream<ThermalInput> gpus = in.gpuNodes(new GpuInputFunction(tc, fc, catalog));
    SingleOutputStreamOperator<ThermalInput> pdus = in.pdu()
        .keyBy(new NodeKeySelector<>(), Types.STRING).connect(in.topology())
        .process(new KeyedAnalyticFunction<>(new PduInputFunction(fc, tc.tickMs()), in.pipeline(), in.clock()), ti)
        .name(NAME + "-pdu-input").uid(NAME + "-pdu-input");
    out.sideOutputsOf(pdus);
    SingleOutputStreamOperator<ThermalInput> coolant = in.coolant()
        .keyBy(new NodeKeySelector<>(), Types.STRING).connect(in.topology())
        .process(new KeyedAnalyticFunction<>(new CoolantInputFunction(fc, tc.tickMs()), in.pipeline(), in.clock()), ti)
        .name(NAME + "-coolant-input").uid(NAME + "-coolant-input");
    out.sideOutputsOf(coolant);

    DataStream<ThermalInput> all = gpus.union(pdus, coolant);
    SingleOutputStreamOperator<ThermalRisk> risk = all
        .keyBy(i -> i.cluster + "|" + i.rack, Types.STRING)
        .process(new RackThermalFunction(tc, fc, NAME), AvroTypeInfo.forClass(ThermalRisk.class))
        .name(NAME + "-rack-risk").uid(NAME + "-rack-risk");
    out.derived(risk);
    out.anomalies(risk.getSideOutput(TickedKeyedFunction.ANOMALIES));
  }

  /** Section {@code facility} with the catalog's cooling capacities filled in. */
  static FacilitySettings facility(AnalyticsConfig cfg, HardwareCatalog catalog) {
    Map<String, Double> byType = new TreeMap<>();
    catalog.cooling().forEach((k, v) -> byType.put(k, v.typicalKw()));
    return cfg.section("facility", FacilitySettings.class).withCatalogCapacities(byType);
  }
}
