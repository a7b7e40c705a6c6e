package io.fleetscope.agent.collectors.pdu;

import io.fleetscope.avro.PduReading;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pure: one SNMP walk of a PDU plus its vendor's {@link OidMap} to {@link PduReading}s. */
public final class SnmpPduParser {

  private SnmpPduParser() {}

  /**
   * Evaluates every table of the map over the walk. A row whose fields are all absent or not
   * measured (negative raw value, which PDUs use for "not available") yields no record.
   *
   * @param source value of the records' {@code source} field, e.g. {@code snmp-apc-rpdu2}
   */
  public static List<PduReading> parse(
      SnmpWalk walk, OidMap map, PduTarget target, long ts, String cluster, String source) {
    List<PduReading> out = new ArrayList<>();
    for (OidMap.Table table : map.tables()) {
      for (String row : walk.column(table.rows()).keySet()) {
        PduReading.Builder b =
            PduReading.newBuilder()
                .setTs(ts)
                .setCluster(cluster)
                .setDevice(target.device())
                .setAgentSeq(0L)
                .setSource(source)
                .setRack(target.rack());
        boolean any = false;
        for (Map.Entry<String, OidMap.Field> f : table.fields().entrySet()) {
          Double v = value(walk, f.getValue(), row);
          if (v == null) {
            continue;
          }
          any = true;
          switch (f.getKey()) {
            case "power_w" -> b.setPowerW(v);
            case "apparent_power_va" -> b.setApparentPowerVa(v);
            case "current_a" -> b.setCurrentA(v);
            case "voltage_v" -> b.setVoltageV(v);
            case "energy_wh" -> b.setEnergyWh(v);
            default -> throw new IllegalStateException("unchecked field " + f.getKey());
          }
        }
        if (!any) {
          continue;
        }
        for (Map.Entry<String, String> l : OidMap.labelsOrEmpty(table).entrySet()) {
          String text = OidMap.label(l.getValue(), row, walk);
          String label = text.isEmpty() ? row : text;
          switch (l.getKey()) {
            case "inlet" -> b.setInlet(label);
            case "outlet" -> b.setOutlet(label);
            case "phase" -> b.setPhase(label);
            default -> throw new IllegalStateException("unchecked label " + l.getKey());
          }
        }
        out.add(b.build());
      }
    }
    return out;
  }

  static Double value(SnmpWalk walk, OidMap.Field f, String row) {
    String instance = row + (f.suffix() == null ? "" : "." + f.suffix());
    SnmpValue raw = walk.get(f.oid() + "." + instance);
    if (raw == null) {
      return null;
    }
    Double d = raw.asDouble();
    if (d == null || d < 0) {
      return null;
    }
    double v = d * f.scaleOrOne();
    if (f.digitsOid() != null) {
      SnmpValue digits = walk.get(f.digitsOid() + "." + instance);
      Double dd = digits == null ? null : digits.asDouble();
      if (dd != null && dd > 0) {
        v = v / Math.pow(10, dd);
      }
    }
    // round away binary noise from the decimal scaling (0.1 * 13 = 1.3000000000000003)
    return Math.round(v * 1e6) / 1e6;
  }
}
