package io.fleetscope.agent.collectors.coolant;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.collectors.redfish.RedfishClient;
import io.fleetscope.avro.CoolantReading;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedfishCduParserTest {

  /** Hand-read from the DMTF public-cooling-unit mockup: connectors' readings, pumps 38.5 % and 0 % (pump 2 failed). */
  static final List<String> MOCKUP_RECORDS = List.of(
      "device=cdu-1 loop=primary-1 source=redfish supply_temp_c=30.0 return_temp_c=40.0 flow_lpm=42.0 pressure_diff_kpa=138.0 pump_speed_pct=null heat_load_kw=25.48 leak_detected=false",
      "device=cdu-1 loop=row-a-tcs source=redfish supply_temp_c=30.0 return_temp_c=48.0 flow_lpm=42.0 pressure_diff_kpa=34.0 pump_speed_pct=19.25 heat_load_kw=25.31 leak_detected=false");

  @TempDir Path tmp;

  static Path mockupDir() throws Exception {
    return Path.of(RedfishCduParserTest.class.getResource("/coolant/dmtf-public-cooling-unit").toURI());
  }

  static List<CoolantReading> parseDir(Path dir) throws Exception {
    RedfishClient c = new RedfishClient(dir.toUri().toString(), null, null, false, Duration.ofSeconds(2));
    return RedfishCduParser.parse(RedfishCduGatherer.gather(c), "cdu-1", Map.of("secondary-1", "row-a-tcs"), 1000L, "c1");
  }

  @Test
  void parsesTheCompleteRecordSetOfTheDmtfCoolingUnitMockup() throws Exception {
    List<CoolantReading> records = parseDir(mockupDir());
    assertThat(CoolantRecords.lines(records)).containsExactlyElementsOf(MOCKUP_RECORDS);
    assertThat(records).allSatisfy(r -> assertThat(r.getTs()).isEqualTo(1000L));
  }

  @Test
  void parsesTheDsp2046SingleResourceExamples() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
    CduDocs docs = new CduDocs(m.readTree("{\"Id\":\"1\"}"), List.of(),
        List.of(m.readTree(Files.readString(example("CoolantConnector")))),
        List.of(m.readTree(Files.readString(example("Pump")))),
        null, List.of(m.readTree(Files.readString(example("LeakDetector")))));
    assertThat(CoolantRecords.lines(RedfishCduParser.parse(List.of(docs), "cdu-x", Map.of(), 1L, "c"))).containsExactly(
        "device=cdu-x loop=secondary-A source=redfish supply_temp_c=14.8 return_temp_c=38.2 flow_lpm=24.3 pressure_diff_kpa=31.7"
            + " pump_speed_pct=62.0 heat_load_kw=null leak_detected=false");
  }

  static Path example(String name) throws Exception {
    return Path.of(RedfishCduParserTest.class.getResource("/coolant/dmtf-DSP2046-examples/" + name + "-v1-example.json").toURI());
  }

  @Test
  void aDetectorInCriticalStateMarksEveryLoopOfTheUnitAsLeaking() throws Exception {
    Path copy = tmp.resolve("cdu");
    copyTree(mockupDir(), copy);
    Path overflow = copy.resolve("ThermalEquipment/CDUs/1/LeakDetection/LeakDetectors/Overflow/index.json");
    Files.writeString(overflow, Files.readString(overflow).replace("\"DetectorState\": \"OK\"", "\"DetectorState\": \"Critical\""));

    assertThat(parseDir(copy)).extracting(CoolantReading::getLeakDetected).containsExactly(true, true);
  }

  @Test
  void noDetectorsAtAllMeansLeakUnknown() throws Exception {
    Path copy = tmp.resolve("cdu");
    copyTree(mockupDir(), copy);
    Path unit = copy.resolve("ThermalEquipment/CDUs/1/index.json");
    Files.writeString(unit, Files.readString(unit).replace("\"LeakDetection\": {", "\"NoLeakDetection\": {"));

    assertThat(parseDir(copy)).extracting(CoolantReading::getLeakDetected).containsExactly(null, null);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
