package io.fleetscope.flink.thermal;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.WholeNodeAnalytic;
import io.fleetscope.schemas.Topics;
import java.io.Serializable;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Keyed by CDU device: each reading copied to every rack the CDU serves (from the topology), with
 * the loop's limits, for the rack-keyed {@link RackThermalFunction}.
 */
public final class CoolantInputFunction extends WholeNodeAnalytic<CoolantReading, ThermalInput, Serializable> {
  private static final long serialVersionUID = 1L;
  private final FacilitySettings facility;

  public CoolantInputFunction(FacilitySettings facility, long tickMs) {
    super(Topics.COOLANT, tickMs, TypeInformation.of(ThermalInput.class), Set.of(CoolantReading.class));
    this.facility = facility;
  }

  @Override
  protected void onTick(UnitTick<String, ThermalInput> tick, List<CoolantReading> records, UnitState<Serializable> state) {
    if (records.isEmpty()) {
      return;
    }
    String device = records.get(0).getDevice();
    Set<String> racks = racksOf(tick, device);
    CoolantLoopMonitor.Limits limits = new CoolantLoopMonitor(facility)
        .limits(TopologyLookups.cduAttributes(tick.topology(), device));
    for (CoolantReading r : records) {
      for (String rack : racks) {
        ThermalInput i = new ThermalInput();
        i.kind = ThermalInput.COOLANT;
        i.cluster = r.getCluster();
        i.rack = rack;
        i.ts = r.getTs();
        i.seq = r.getAgentSeq();
        i.device = r.getDevice();
        i.loop = r.getLoop();
        i.supplyTempC = r.getSupplyTempC();
        i.flowLpm = r.getFlowLpm();
        i.supplyMaxC = limits.supplyMaxC();
        i.flowMinLpm = limits.flowMinLpm();
        tick.emit(i);
      }
    }
  }

  /** The inventory's CDU -> racks index, built once per tick end (every CDU of this subtask ticks then). */
  private transient long racksAt = Long.MIN_VALUE;
  private transient java.util.Map<String, TreeSet<String>> racksByCdu;

  private TreeSet<String> racksOf(UnitTick<?, ?> tick, String device) {
    if (racksByCdu == null || racksAt != tick.end()) {
      racksByCdu = TopologyLookups.racksByCdu(tick.topology());
      racksAt = tick.end();
    }
    return racksByCdu.getOrDefault(device, new TreeSet<>());
  }
}
