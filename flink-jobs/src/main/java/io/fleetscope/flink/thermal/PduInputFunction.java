package io.fleetscope.flink.thermal;

import io.fleetscope.avro.PduReading;
import io.fleetscope.flink.core.WholeNodeAnalytic;
import io.fleetscope.schemas.Topics;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Keyed by PDU device: each reading with power, tagged with the rack it feeds (the reading's rack,
 * else the node whose pdu_outlets name the outlet, else the PDU's single rack) and that rack's
 * cooling, for the rack-keyed stages.
 */
public final class PduInputFunction extends WholeNodeAnalytic<PduReading, ThermalInput, Serializable> {
  private static final long serialVersionUID = 1L;
  private final FacilitySettings facility;

  public PduInputFunction(FacilitySettings facility, long tickMs) {
    super(Topics.PDU, tickMs, TypeInformation.of(ThermalInput.class), Set.of(PduReading.class));
    this.facility = facility;
  }

  @Override
  protected void onTick(UnitTick<String, ThermalInput> tick, List<PduReading> records, UnitState<Serializable> state) {
    Map<String, String> outletRacks = null;
    for (PduReading r : records) {
      if (r.getPowerW() == null) {
        continue;
      }
      if (outletRacks == null && r.getRack() == null) {
        outletRacks = TopologyLookups.outletRacks(tick.topology());
      }
      String rack = TopologyLookups.rackOfPdu(tick.topology(), r.getDevice(), r.getRack(), r.getOutlet(),
          outletRacks == null ? Map.of() : outletRacks);
      TopologyLookups.RackCooling cooling = TopologyLookups.rackCooling(tick.topology(), rack, null, facility);
      ThermalInput i = new ThermalInput();
      i.kind = ThermalInput.PDU;
      i.cluster = r.getCluster();
      i.rack = rack;
      i.ts = r.getTs();
      i.seq = r.getAgentSeq();
      i.device = r.getDevice();
      i.point = RackPowerTracker.pointOf(r);
      i.watts = r.getPowerW();
      i.rackCapacityKw = cooling.capacityKw();
      i.coolingType = cooling.type();
      tick.emit(i);
    }
  }
}
