package io.fleetscope.agent.collectors.pdu;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
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
  void severalPdusOnOneServiceGetDeviceIdsWithTheirRedfishId() throws Exception {
    ObjectMapper m = new ObjectMapper();
    RackPduDocs a = new RackPduDocs(m.readTree("{\"Id\":\"1\"}"), m.readTree("{\"PowerWatts\":{\"Reading\":10}}"), List.of(), List.of());
    RackPduDocs b = new RackPduDocs(m.readTree("{\"Id\":\"2\"}"), m.readTree("{\"PowerWatts\":{\"Reading\":20}}"), List.of(), List.of());
    List<PduReading> rs = RedfishPduParser.parse(List.of(a, b), new PduTarget("pdu-x", null), 1L, "c");
    assertThat(rs).extracting(r -> r.getDevice().toString() + "=" + r.getPowerW()).containsExactly("pdu-x-1=10.0", "pdu-x-2=20.0");
  }
}
