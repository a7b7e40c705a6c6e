package io.fleetscope.agent.collectors.pdu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.PduReading;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class SnmpPduParserTest {

  static Stream<Arguments> captures() {
    return Stream.of(
        Arguments.of("raritan-pdu2", "librenms-raritan-pdu_px3", "raritan-pdu_px3"),
        Arguments.of("apc-rpdu2", "librenms-apc_ap8959eu3", "apc_ap8959eu3"),
        Arguments.of("apc-rpdu2", "librenms-apc_apdu9959eu3", "apc_apdu9959eu3"),
        Arguments.of("sentry4", "librenms-sentry4", "sentry4"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("captures")
  void parsesTheCompleteRecordSetOfEachCapture(String vendor, String capture, String expected) {
    SnmpWalk walk = SnmpWalk.parseSnmprec(PduRecords.resource("/pdu/" + capture + ".snmprec"));
    List<PduReading> records = SnmpPduParser.parse(
        walk, OidMap.builtIn(vendor), new PduTarget("pdu-1", "R1"), 1000L, "c1", "snmp-" + vendor);

    assertThat(PduRecords.lines(records)).containsExactlyElementsOf(PduRecords.expected("/pdu/expected/" + expected + ".txt"));
    assertThat(records).allSatisfy(r -> {
      assertThat(r.getTs()).isEqualTo(1000L);
      assertThat(r.getCluster().toString()).isEqualTo("c1");
      assertThat(r.getAgentSeq()).isZero();
    });
  }

  @Test
  void aVendorMapFindsNothingInAnotherVendorsWalk() {
    SnmpWalk apc = SnmpWalk.parseSnmprec(PduRecords.resource("/pdu/librenms-apc_ap8959eu3.snmprec"));
    assertThat(SnmpPduParser.parse(apc, OidMap.builtIn("sentry4"), new PduTarget("p", null), 1L, "c", "s")).isEmpty();
  }

  @Test
  void negativeRawValuesMeanNotMeasuredAndYieldNull() {
    SnmpWalk walk = SnmpWalk.parseSnmprec(String.join("\n",
        "1.3.6.1.4.1.318.1.1.26.4.3.1.1.1|2|1",
        "1.3.6.1.4.1.318.1.1.26.4.3.1.5.1|2|-1",
        "1.3.6.1.4.1.318.1.1.26.4.3.1.9.1|2|42"));
    List<PduReading> rs = SnmpPduParser.parse(walk, OidMap.builtIn("apc-rpdu2"), new PduTarget("p", null), 1L, "c", "s");
    assertThat(rs).hasSize(1);
    assertThat(rs.get(0).getPowerW()).isNull();
    assertThat(rs.get(0).getEnergyWh()).isEqualTo(4200.0);
  }

  @Test
  void walkOrdersOidsNumericallyNotAsText() {
    SnmpWalk walk = SnmpWalk.parseSnmprec("1.3.6.10|2|1\n1.3.6.9|2|2\n1.3.6.9.1|2|3\n");
    assertThat(walk.all().keySet()).containsExactly("1.3.6.9", "1.3.6.9.1", "1.3.6.10");
  }

  @Test
  void snmprecHexValuesAreDecoded() {
    SnmpWalk walk = SnmpWalk.parseSnmprec("1.3.6.1|4x|414243\n");
    assertThat(walk.get("1.3.6.1").text()).isEqualTo("ABC");
  }

  @Test
  void malformedSnmprecLineIsNamed() {
    assertThatThrownBy(() -> SnmpWalk.parseSnmprec("1.3.6.1|2|1\ngarbage\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2");
  }

  @Test
  void badOidMapsAreRefusedWithThePathOfTheBadKey() {
    String bad = "{\"vendor\":\"x\",\"tables\":[{\"name\":\"t\",\"rows\":\"1.3.6.1\",\"fields\":{\"watts\":{\"oid\":\"1.3.6.1.2\"}}}]}";
    assertThatThrownBy(() -> OidMap.parse(bad.getBytes(StandardCharsets.UTF_8), "site.json"))
        .hasMessageContaining("tables[0].fields.watts").hasMessageContaining("unknown field");
    String badOid = "{\"vendor\":\"x\",\"tables\":[{\"name\":\"t\",\"rows\":\"iso.3\",\"fields\":{\"power_w\":{\"oid\":\"1.3.6.1.2\"}}}]}";
    assertThatThrownBy(() -> OidMap.parse(badOid.getBytes(StandardCharsets.UTF_8), "site.json"))
        .hasMessageContaining("tables[0].rows");
    assertThatThrownBy(() -> OidMap.builtIn("eaton")).hasMessageContaining("unknown PDU vendor 'eaton'");
  }

  @Test
  void columnsListEveryOidTheMapReads() {
    assertThat(OidMap.builtIn("raritan-pdu2").columns()).containsExactlyInAnyOrder(
        "1.3.6.1.4.1.13742.6.3.3.3.1.2", "1.3.6.1.4.1.13742.6.5.2.3.1.4", "1.3.6.1.4.1.13742.6.3.3.4.1.7",
        "1.3.6.1.4.1.13742.6.3.5.3.1.2", "1.3.6.1.4.1.13742.6.5.4.3.1.4", "1.3.6.1.4.1.13742.6.3.5.4.1.7");
  }
}
