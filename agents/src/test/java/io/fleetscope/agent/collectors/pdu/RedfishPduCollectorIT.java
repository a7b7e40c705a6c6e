package io.fleetscope.agent.collectors.pdu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.collectors.redfish.MockupServer;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.PduReading;
import io.fleetscope.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Redfish PDU collector against a real HTTP server serving the DMTF rack-PDU mockup with basic auth. */
class RedfishPduCollectorIT {

  @TempDir Path tmp;

  @Test
  void pollsTheMockupOverHttpWithBasicAuth() throws Exception {
    try (MockupServer server = MockupServer.ofResource("/pdu/dmtf-public-pdu", "fleet", "s3cret!");
         PduCollector collector = new PduCollector(config(server.baseUrl(), "s3cret!"), env(), Duration.ofSeconds(5))) {
      List<AgentRecord> all = collector.collect(new CollectContext(1000L, "c1", "facility-a"));
      List<AgentRecord> records = all.stream().filter(r -> r.topic().equals(Topics.PDU)).toList();
      assertThat(all.stream().filter(r -> r.topic().equals(Topics.INVENTORY)).toList()).singleElement()
          .satisfies(r -> assertThat(r.value().toString()).contains("\"kind\": \"pdu\"").contains("\"racks\": [\"R5\"]"));

      assertThat(records).allSatisfy(r -> {
        assertThat(r.topic()).isEqualTo(Topics.PDU);
        assertThat(r.key()).isEqualTo("pdu-rf-1");
      });
      assertThat(PduRecords.lines(records.stream().map(r -> (PduReading) r.value()).toList()))
          .containsExactlyElementsOf(PduRecords.expected("/pdu/expected/redfish-public-pdu.txt"));
      assertThat(server.unauthorized()).isZero();
      // RackPDUs, the PDU, Metrics, Mains + AC1, Outlets + 11 outlets
      assertThat(server.requests()).isEqualTo(17);
    }
  }

  @Test
  void aWrongPasswordFailsWithTheHttpStatus() throws Exception {
    try (MockupServer server = MockupServer.ofResource("/pdu/dmtf-public-pdu", "fleet", "s3cret!");
         PduCollector collector = new PduCollector(config(server.baseUrl(), "wrong"), env(), Duration.ofSeconds(5))) {
      assertThatThrownBy(() -> collector.collect(new CollectContext(1L, "c1", "f")))
          .hasMessageContaining("HTTP 401").hasMessageContaining("/redfish/v1/PowerEquipment/RackPDUs");
    }
  }

  private static PduConfig config(String baseUrl, String password) throws Exception {
    PduConfig.RedfishTarget t = new PduConfig.RedfishTarget();
    t.device = "pdu-rf-1";
    t.rack = "R5";
    t.baseUrl = baseUrl;
    t.username = "fleet";
    t.password = password;
    PduConfig c = new PduConfig();
    c.redfish.add(t);
    c.validate("pdu");
    return c;
  }

  private AgentEnv env() {
    AgentConfig a = new AgentConfig();
    a.cluster = "c1";
    a.node = "facility-a";
    a.baseDir = tmp;
    return new AgentEnv(a);
  }
}
