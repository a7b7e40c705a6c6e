package io.fleetscope.agent.collectors.pdu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.PduReading;
import io.fleetscope.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The PDU collector against a real net-snmp snmpd serving the captured PDU OIDs. */
class SnmpPduCollectorIT {

  @TempDir Path tmp;

  @ParameterizedTest(name = "{1} over {0}")
  @CsvSource({
    "v2c, librenms-raritan-pdu_px3, raritan-pdu2, raritan-pdu_px3",
    "v3,  librenms-raritan-pdu_px3, raritan-pdu2, raritan-pdu_px3",
    "v2c, librenms-apc_ap8959eu3,   apc-rpdu2,    apc_ap8959eu3",
    "v3,  librenms-apc_apdu9959eu3, apc-rpdu2,    apc_apdu9959eu3",
    "v2c, librenms-sentry4,         sentry4,      sentry4",
    "v3,  librenms-sentry4,         sentry4,      sentry4",
    "v3-sha256-aes256, librenms-apc_ap8959eu3, apc-rpdu2, apc_ap8959eu3"
  })
  void pollsTheCompleteRecordSetFromARealSnmpd(String version, String capture, String vendor, String expected) throws Exception {
    try (Snmpd snmpd = Snmpd.serve(tmp.resolve("snmpd"), capture + ".snmprec");
         PduCollector collector = new PduCollector(config(target(snmpd.port, version, vendor)), env(), Duration.ofSeconds(5))) {
      List<AgentRecord> all = collector.collect(new CollectContext(1000L, "c1", "facility-a"));
      List<AgentRecord> records = all.stream().filter(r -> r.topic().equals(Topics.PDU)).toList();

      // the first round also announces the PDU to fleet.inventory.v1, once
      assertThat(all.stream().filter(r -> r.topic().equals(Topics.INVENTORY)).toList()).singleElement().satisfies(r -> {
        InventoryRecord inv = (InventoryRecord) r.value();
        assertThat(r.key()).isEqualTo("pdu-1");
        assertThat(inv.getKind().toString()).isEqualTo("pdu");
        assertThat(inv.getRacks()).extracting(Object::toString).containsExactly("R1");
        assertThat(inv.getAttributes().toString()).contains("oid_map=" + vendor).contains("protocol=snmp-" + (version.startsWith("v3") ? "v3" : "v2c"));
      });
      assertThat(all).hasSize(records.size() + 1);
      assertThat(collector.collect(new CollectContext(2000L, "c1", "facility-a")))
          .extracting(AgentRecord::topic).containsOnly(Topics.PDU).hasSize(records.size());
      assertThat(records).allSatisfy(r -> {
        assertThat(r.topic()).isEqualTo(Topics.PDU);
        assertThat(r.key()).isEqualTo("pdu-1");
      });
      List<PduReading> values = records.stream().map(r -> (PduReading) r.value()).toList();
      // same complete record set as the pure parser on the file: nothing lost or altered on the wire
      assertThat(PduRecords.lines(values)).containsExactlyElementsOf(PduRecords.expected("/pdu/expected/" + expected + ".txt"));
    }
  }

  @Test
  void aWrongV3PasswordFailsTheRoundWithAClearReason() throws Exception {
    try (Snmpd snmpd = Snmpd.serve(tmp.resolve("snmpd"), "librenms-apc_ap8959eu3.snmprec")) {
      PduConfig.SnmpTarget t = target(snmpd.port, "v3", "apc-rpdu2");
      t.authPassword = "wrong-password-1";
      t.requestTimeout = Duration.ofMillis(500);
      t.retries = 0;
      try (PduCollector collector = new PduCollector(config(t), env(), Duration.ofSeconds(5))) {
        assertThatThrownBy(() -> collector.collect(new CollectContext(1L, "c1", "f")))
            .hasMessageContaining("all 1 PDUs failed").hasMessageContaining("SNMP walk");
      }
    }
  }

  @Test
  void oneDeadPduDoesNotStopTheOthers() throws Exception {
    try (Snmpd snmpd = Snmpd.serve(tmp.resolve("snmpd"), "librenms-apc_ap8959eu3.snmprec")) {
      PduConfig.SnmpTarget good = target(snmpd.port, "v2c", "apc-rpdu2");
      PduConfig.SnmpTarget dead = target(snmpd.port, "v2c", "apc-rpdu2");
      dead.device = "pdu-dead";
      dead.community = "not-the-community";
      dead.requestTimeout = Duration.ofMillis(300);
      dead.retries = 0;
      PduConfig.SnmpTarget v3 = target(snmpd.port, "v3", "apc-rpdu2");
      v3.device = "pdu-v3";
      PduConfig cfg = config(dead);
      cfg.snmp.add(good);
      cfg.snmp.add(v3);
      try (PduCollector collector = new PduCollector(cfg, env(), Duration.ofSeconds(5))) {
        assertThat(collector.snmpSessions()).as("the two v2c targets share one session, the v3 user has its own").isEqualTo(2);
        List<AgentRecord> records = collector.collect(new CollectContext(1L, "c1", "f"));
        assertThat(records.stream().filter(r -> r.topic().equals(Topics.PDU)).toList())
            .extracting(AgentRecord::key).containsExactly("pdu-1", "pdu-1", "pdu-v3", "pdu-v3");
        assertThat(records.stream().filter(r -> r.topic().equals(Topics.INVENTORY)).toList())
            .extracting(AgentRecord::key).containsExactly("pdu-1", "pdu-v3");
      }
    }
  }

  private static PduConfig.SnmpTarget target(int port, String version, String vendor) {
    if (version.equals("v3-sha256-aes256")) {
      PduConfig.SnmpTarget t = target(port, "v3", vendor);
      t.user = Snmpd.V3_STRONG_USER;
      t.authProtocol = "SHA256";
      t.authPassword = Snmpd.V3_STRONG_AUTH;
      t.privProtocol = "AES256";
      t.privPassword = Snmpd.V3_STRONG_PRIV;
      return t;
    }
    PduConfig.SnmpTarget t = new PduConfig.SnmpTarget();
    t.device = "pdu-1";
    t.rack = "R1";
    t.host = "127.0.0.1";
    t.port = port;
    t.version = version;
    t.vendor = vendor;
    t.community = Snmpd.COMMUNITY;
    t.user = Snmpd.V3_USER;
    t.authProtocol = "SHA";
    t.authPassword = Snmpd.V3_AUTH;
    t.privProtocol = "AES128";
    t.privPassword = Snmpd.V3_PRIV;
    return t;
  }

  private static PduConfig config(PduConfig.SnmpTarget t) throws Exception {
    PduConfig c = new PduConfig();
    c.snmp.add(t);
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
