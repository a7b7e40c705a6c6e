package io.fleetscope.agent.collectors.pdu;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.agent.collectors.redfish.RedfishClient;
import io.fleetscope.avro.PduReading;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedfishPduParserTest {

  @Test
  void parsesTheCompleteRecordSetOfTheDmtfRackPduMockup() throws Exception {
    RedfishClient mockup = new RedfishClient(
        Path.of(getClass().getResource("/pdu/dmtf-public-pdu").toURI()).toUri().toString(), null, null, false, Duration.ofSeconds(2));
    List<PduReading> records = RedfishPduParser.parse(RedfishPduGatherer.gather(mockup), new PduTarget("pdu-rf-1", "R5"), 1000L, "c1");
    assertThat(PduRecords.lines(records)).containsExactlyElementsOf(PduRecords.expected("/pdu/expected/redfish-public-pdu.txt"));
  }

  @Test
  void parsesTheDsp2046SingleResourceExamples() throws Exception {
    ObjectMapper m = new ObjectMapper();
    RackPduDocs docs = new RackPduDocs(m.readTree("{\"Id\":\"1\"}"),
        m.readTree(PduRecords.resource("/pdu/dmtf-DSP2046-examples/PowerDistributionMetrics-v1-example.json")),
        List.of(m.readTree(PduRecords.resource("/pdu/dmtf-DSP2046-examples/Circuit-v1-example.json"))),
        List.of(m.readTree(PduRecords.resource("/pdu/dmtf-DSP2046-examples/Outlet-v1-example.json"))));
    String d = "device=pdu-x rack=null source=redfish ";
    assertThat(PduRecords.lines(RedfishPduParser.parse(List.of(docs), new PduTarget("pdu-x", null), 1L, "c"))).containsExactly(
        d + "inlet=null outlet=null phase=null power_w=6438.0 apparent_power_va=6300.0 current_a=null voltage_v=null energy_wh=5.6438E7",
        d + "inlet=A outlet=null phase=null power_w=937.4 apparent_power_va=937.4 current_a=5.19 voltage_v=null energy_wh=3.25675E8",
        d + "inlet=A outlet=null phase=Line1ToNeutral power_w=937.4 apparent_power_va=937.4 current_a=null voltage_v=118.2 energy_wh=null",
        d + "inlet=A outlet=null phase=Line1ToLine2 power_w=null apparent_power_va=null current_a=null voltage_v=203.5 energy_wh=null",
        d + "inlet=A outlet=null phase=Line1 power_w=null apparent_power_va=null current_a=5.19 voltage_v=null energy_wh=null",
        d + "inlet=null outlet=A1 phase=null power_w=197.4 apparent_power_va=197.4 current_a=1.68 voltage_v=117.5 energy_wh=3.6166E7");
  }

  @Test
  void severalPdusOnOneServiceGetDeviceIdsWithTheirRedfishId() throws Exception {
    ObjectMapper m = new ObjectMapper();
    RackPduDocs a = new RackPduDocs(m.readTree("{\"Id\":\"1\"}"), m.readTree("{\"PowerWatts\":{\"Reading\":10}}"), List.of(), List.of());
    RackPduDocs b = new RackPduDocs(m.readTree("{\"Id\":\"2\"}"), m.readTree("{\"PowerWatts\":{\"Reading\":20}}"), List.of(), List.of());
    List<PduReading> rs = RedfishPduParser.parse(List.of(a, b), new PduTarget("pdu-x", null), 1L, "c");
    assertThat(rs).extracting(r -> r.getDevice().toString() + "=" + r.getPowerW()).containsExactly("pdu-x-1=10.0", "pdu-x-2=20.0");
  }
}
