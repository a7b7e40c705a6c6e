package io.fleetscope.agent.collectors.pdu;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.agent.collectors.gpu.Values;
import io.fleetscope.avro.PduReading;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Pure: Redfish PowerDistribution resources to {@link PduReading}s.
 *
 * <ul>
 *   <li>Metrics (PowerDistributionMetrics): one whole-PDU record, no inlet/outlet/phase.
 *   <li>each Mains circuit: one record {@code inlet=<Id>} with the circuit's own readings (when it
 *       has any) and one per phase key of PolyPhaseVoltage / PolyPhasePowerWatts /
 *       PolyPhaseCurrentAmps / PolyPhaseEnergykWh ({@code phase=Line1ToNeutral}, {@code Line1}, ...).
 *   <li>each Outlet: one record {@code outlet=<Id>}.
 * </ul>
 * Energy is converted from kWh to Wh; power_w is {@code PowerWatts.Reading}, apparent power
 * {@code PowerWatts.ApparentVA}.
 */
public final class RedfishPduParser {

  private RedfishPduParser() {}

  public static List<PduReading> parse(List<RackPduDocs> pdus, PduTarget target, long ts, String cluster) {
    List<PduReading> out = new ArrayList<>();
    for (RackPduDocs docs : pdus) {
      String device = pdus.size() == 1 ? target.device() : target.device() + "-" + docs.pdu().path("Id").asText();
      if (docs.metrics() != null) {
        PduReading.Builder b = base(device, target.rack(), ts, cluster);
        if (fill(b, docs.metrics())) {
          out.add(b.build());
        }
      }
      for (JsonNode circuit : docs.mains()) {
        String inlet = circuit.path("Id").asText();
        PduReading.Builder whole = base(device, target.rack(), ts, cluster).setInlet(inlet);
        if (fill(whole, circuit)) {
          out.add(whole.build());
        }
        for (String phase : phaseKeys(circuit)) {
          PduReading.Builder b = base(device, target.rack(), ts, cluster).setInlet(inlet).setPhase(phase);
          b.setVoltageV(reading(circuit.path("PolyPhaseVoltage").path(phase)));
          b.setCurrentA(reading(circuit.path("PolyPhaseCurrentAmps").path(phase)));
          JsonNode power = circuit.path("PolyPhasePowerWatts").path(phase);
          b.setPowerW(reading(power));
          b.setApparentPowerVa(number(power.path("ApparentVA")));
          b.setEnergyWh(kWhToWh(reading(circuit.path("PolyPhaseEnergykWh").path(phase))));
          out.add(b.build());
        }
      }
      for (JsonNode outlet : docs.outlets()) {
        PduReading.Builder b = base(device, target.rack(), ts, cluster).setOutlet(outlet.path("Id").asText());
        if (fill(b, outlet)) {
          out.add(b.build());
        }
      }
    }
    return out;
  }

  private static PduReading.Builder base(String device, String rack, long ts, String cluster) {
    return PduReading.newBuilder().setTs(ts).setCluster(cluster).setDevice(device).setAgentSeq(0L)
        .setSource("redfish").setRack(rack);
  }

  /** Sets the single-valued readings of a Circuit, Outlet or PowerDistributionMetrics; false if none. */
  private static boolean fill(PduReading.Builder b, JsonNode r) {
    Double v = reading(r.path("Voltage"));
    Double i = reading(r.path("CurrentAmps"));
    Double p = reading(r.path("PowerWatts"));
    Double va = number(r.path("PowerWatts").path("ApparentVA"));
    Double e = kWhToWh(reading(r.path("EnergykWh")));
    b.setVoltageV(v).setCurrentA(i).setPowerW(p).setApparentPowerVa(va).setEnergyWh(e);
    return v != null || i != null || p != null || va != null || e != null;
  }

  private static Set<String> phaseKeys(JsonNode circuit) {
    Set<String> keys = new LinkedHashSet<>();
    for (String prop : List.of("PolyPhaseVoltage", "PolyPhasePowerWatts", "PolyPhaseCurrentAmps", "PolyPhaseEnergykWh")) {
      for (Iterator<String> it = circuit.path(prop).fieldNames(); it.hasNext(); ) {
        keys.add(it.next());
      }
    }
    return keys;
  }

  private static Double reading(JsonNode sensorExcerpt) {
    return number(sensorExcerpt.path("Reading"));
  }

  private static Double number(JsonNode n) {
    return n.isNumber() ? Values.finite(n.asDouble()) : null;
  }

  private static Double kWhToWh(Double kwh) {
    return kwh == null ? null : Math.round(kwh * 1000.0 * 1e6) / 1e6;
  }
}
