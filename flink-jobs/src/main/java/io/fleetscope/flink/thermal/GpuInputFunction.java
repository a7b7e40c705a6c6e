package io.fleetscope.flink.thermal;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.HardwareCatalog;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.core.WholeNodeAnalytic;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Per node (in the GPU node stage): each GPU sample with its rack, CDU loop, limits and rack cooling looked up in
 * the topology at tick time, for the rack-keyed {@link RackThermalFunction}.
 */
public final class GpuInputFunction extends WholeNodeAnalytic<GpuSample, ThermalInput, java.io.Serializable> {
  private static final long serialVersionUID = 1L;
  private final ThermalRiskSettings cfg;
  private final FacilitySettings facility;
  private final HardwareCatalog catalog;

  public GpuInputFunction(ThermalRiskSettings cfg, FacilitySettings facility, HardwareCatalog catalog) {
    super(Topics.GPU, cfg.tickMs(), TypeInformation.of(ThermalInput.class), Set.of(GpuSample.class));
    this.cfg = cfg;
    this.facility = facility;
    this.catalog = catalog;
  }

  @Override
  protected void onTick(UnitTick<String, ThermalInput> tick, List<GpuSample> records, UnitState<java.io.Serializable> state) {
    if (records.isEmpty()) {
      return;
    }
    Topology t = tick.topology();
    String node = records.get(0).getNode();
    String rack = TopologyLookups.rackKey(t, node);
    String loop = TopologyLookups.loopOf(t, node, rack);
    TopologyLookups.RackCooling cooling = TopologyLookups.rackCooling(t, rack, node, facility);
    java.util.Map<Integer, GpuThermalLimits> byGpu = new java.util.HashMap<>();
    for (GpuSample s : records) {
      GpuThermalLimits limits = byGpu.computeIfAbsent(s.getGpu(),
          g -> TopologyLookups.limits(t, catalog, node, g, s.getModel(), cfg.fallbackLimits()));
      ThermalInput i = new ThermalInput();
      i.kind = ThermalInput.GPU;
      i.cluster = s.getCluster();
      i.rack = rack;
      i.ts = s.getTs();
      i.seq = s.getAgentSeq();
      i.node = node;
      i.gpu = s.getGpu();
      i.model = s.getModel();
      i.tempC = s.getTempC();
      i.memTempC = s.getMemTempC();
      i.powerW = s.getPowerW();
      i.powerLimitW = s.getPowerLimitW();
      i.throttleReasons = s.getThrottleReasons();
      i.energyMj = s.getEnergyMj();
      i.slowdownTempC = limits.slowdownTempC();
      i.memMaxTempC = limits.memMaxTempC();
      i.tdpW = limits.tdpW();
      i.loop = loop;
      i.rackCapacityKw = cooling.capacityKw();
      i.coolingType = cooling.type();
      tick.emit(i);
    }
  }
}
