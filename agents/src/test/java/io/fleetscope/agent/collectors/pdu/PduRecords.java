package io.fleetscope.agent.collectors.pdu;

import io.fleetscope.avro.PduReading;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: a PduReading as one line, and expected-record files. */
final class PduRecords {
  private PduRecords() {}

  static String line(PduReading r) {
    return "device=" + r.getDevice() + " rack=" + r.getRack() + " source=" + r.getSource()
        + " inlet=" + r.getInlet() + " outlet=" + r.getOutlet() + " phase=" + r.getPhase()
        + " power_w=" + r.getPowerW() + " apparent_power_va=" + r.getApparentPowerVa()
        + " current_a=" + r.getCurrentA() + " voltage_v=" + r.getVoltageV() + " energy_wh=" + r.getEnergyWh();
  }

  static List<String> lines(List<PduReading> rs) {
    List<String> out = new ArrayList<>();
    rs.forEach(r -> out.add(line(r)));
    return out;
  }

  static String resource(String path) {
    try (InputStream in = PduRecords.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Expected lines of a file: blank lines and # comments skipped. */
  static List<String> expected(String path) {
    List<String> out = new ArrayList<>();
    for (String l : resource(path).split("\n")) {
      if (!l.isBlank() && !l.startsWith("#")) {
        out.add(l.strip());
      }
    }
    return out;
  }
}
