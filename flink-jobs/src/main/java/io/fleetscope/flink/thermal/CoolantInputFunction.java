package io.fleetscope.flink.thermal;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.WallClock;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keyed by CDU device: each reading copied to every rack the CDU serves (from the topology), with
 * the loop's limits, for the rack-keyed {@link RackThermalFunction}.
 */
public final class CoolantInputFunction extends TickedKeyedFunction<CoolantReading, ThermalInput> {
  private static final long serialVersionUID = 1L;
  private final FacilitySettings facility;

  public CoolantInputFunction(FacilitySettings facility, long tickMs, PipelineConfig pipeline, WallClock clock) {
    super(Topics.COOLANT, CoolantReading.class, tickMs, pipeline, clock);
    this.facility = facility;
  }

  public static String keyOf(CoolantReading r) {
    return r.getCluster() + "|" + r.getDevice();
  }

  @Override
  protected void onTick(Tick<ThermalInput> tick, List<CoolantReading> records) {
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

  private TreeSet<String> racksOf(Tick<?> tick, String device) {
    if (racksByCdu == null || racksAt != tick.end()) {
      racksByCdu = TopologyLookups.racksByCdu(tick.topology());
      racksAt = tick.end();
    }
    return racksByCdu.getOrDefault(device, new TreeSet<>());
  }
}
