package io.fleetscope.agent.collectors.coolant;

import io.fleetscope.avro.CoolantReading;
import java.util.List;

/** Test helper: a CoolantReading as one line. */
final class CoolantRecords {
  private CoolantRecords() {}

  static String line(CoolantReading r) {
    return "device=" + r.getDevice() + " loop=" + r.getLoop() + " source=" + r.getSource()
        + " supply_temp_c=" + r.getSupplyTempC() + " return_temp_c=" + r.getReturnTempC()
        + " flow_lpm=" + r.getFlowLpm() + " pressure_diff_kpa=" + r.getPressureDiffKpa()
        + " pump_speed_pct=" + r.getPumpSpeedPct() + " heat_load_kw=" + r.getHeatLoadKw()
        + " leak_detected=" + r.getLeakDetected();
  }

  static List<String> lines(List<CoolantReading> rs) {
    return rs.stream().map(CoolantRecords::line).toList();
  }
}
