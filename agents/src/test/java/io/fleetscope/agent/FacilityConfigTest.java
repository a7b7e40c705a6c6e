package io.fleetscope.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.collectors.coolant.CoolantConfig;
import io.fleetscope.agent.collectors.pdu.PduConfig;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.config.ConfigLoader;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.agent.core.CollectorRegistry;
import io.fleetscope.schemas.Topics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The facility sections as the agent's own loader binds them, the examples, and errors naming the key. */
class FacilityConfigTest {

  static final CollectorRegistry REGISTRY = BuiltinCollectors.registry();
  static final String HEAD = "cluster: c1\nnode: f1\nnvidia_smi: {enabled: false}\nxid: {enabled: false}\nib: {enabled: false}\ninventory: {enabled: false}\n";

  static AgentConfig parse(String yaml) throws ConfigException {
    return new ConfigLoader(REGISTRY).parse(HEAD + yaml, Path.of("."));
  }

  @Test
  void theFacilityExampleIsValid() throws Exception {
    AgentConfig cfg = new ConfigLoader(REGISTRY).load(Path.of("examples/facility.yaml"));
    PduConfig pdu = (PduConfig) cfg.collectors().get("pdu");
    assertThat(pdu.snmp).extracting(t -> t.device + "/" + t.version + "/" + t.vendor)
        .containsExactly("pdu-r12-a/v3/raritan-pdu2", "pdu-r12-b/v2c/apc-rpdu2", "pdu-r13-a/v2c/sentry4");
    assertThat(pdu.snmp.get(0).authProtocol).isEqualTo("SHA256");
    assertThat(pdu.redfish.get(0).tlsInsecure).isTrue();
    CoolantConfig coolant = (CoolantConfig) cfg.collectors().get("coolant");
    assertThat(coolant.modbus.get(0).registers).hasSize(7);
    assertThat(coolant.redfish.get(0).loops).containsEntry("secondary-1", "secondary");
  }

  @Test
  void theFacilityReplayExampleProducesEveryDevicesRecords() throws Exception {
    AgentConfig cfg = new ConfigLoader(REGISTRY).load(Path.of("examples/facility-replay.yaml"));
    AgentEnv env = new AgentEnv(cfg);
    Map<String, Integer> counts = new TreeMap<>();
    for (String name : List.of("pdu", "coolant")) {
      try (Collector c = REGISTRY.get(name).create(cfg.collectors().get(name), env)) {
        for (AgentRecord r : c.collect(new CollectContext(1000L, cfg.cluster, cfg.node))) {
          counts.merge(r.topic() + " " + r.key(), 1, Integer::sum);
        }
      }
    }
    assertThat(counts).isEqualTo(new TreeMap<>(Map.of(
        Topics.PDU + " pdu-r12-a", 25, Topics.PDU + " pdu-r12-b", 2, Topics.PDU + " pdu-r13-a", 14, Topics.PDU + " pdu-r14-a", 20,
        Topics.INVENTORY + " pdu-r12-a", 1, Topics.INVENTORY + " pdu-r12-b", 1, Topics.INVENTORY + " pdu-r13-a", 1,
        Topics.INVENTORY + " pdu-r14-a", 1, Topics.COOLANT + " cdu-row3", 2, Topics.INVENTORY + " cdu-row3", 1)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "unknown vendor      | pdu: {snmp: [{device: p, host: h, vendor: eaton}]}                                  | pdu.snmp[0].vendor: unknown vendor 'eaton'",
    "typo in a key       | pdu: {snmp: [{device: p, host: h, vendor: sentry4, comunity: x}]}                    | pdu.snmp[0].comunity: unknown key",
    "missing host        | pdu: {snmp: [{device: p, vendor: sentry4}]}                                         | pdu.snmp[0].host: is required",
    "bad version         | pdu: {snmp: [{device: p, host: h, vendor: sentry4, version: v1}]}                    | pdu.snmp[0].version: must be v2c or v3",
    "short v3 password   | pdu: {snmp: [{device: p, host: h, vendor: sentry4, version: v3, user: u, auth_password: short, priv_password: longenough}]} | pdu.snmp[0].auth_password: must be at least 8 characters",
    "bad auth protocol   | pdu: {snmp: [{device: p, host: h, vendor: sentry4, version: v3, user: u, auth_protocol: SHA3}]} | pdu.snmp[0].auth_protocol: must be one of",
    "duplicate device    | pdu: {snmp: [{device: p, host: h, vendor: sentry4}], redfish: [{device: p, base_url: 'https://x'}]} | pdu.redfish[0].device: duplicate device id 'p'",
    "bad redfish url     | pdu: {redfish: [{device: p, base_url: 'ftp://x'}]}                                  | pdu.redfish[0].base_url: must start with http://, https:// or file:",
    "modbus without map  | coolant: {modbus: [{device: c, loop: l, host: h}]}                                  | coolant.modbus[0].registers: needs at least one entry",
    "modbus bad field    | coolant: {modbus: [{device: c, loop: l, host: h, registers: [{field: temp, register: 1}]}]} | coolant.modbus[0].registers[0].field: must be one of",
    "modbus bad loop key | coolant: {redfish: [{device: c, base_url: 'https://x', loops: {tertiary-1: x}}]}   | coolant.redfish[0].loops.tertiary-1",
    "ckpt bad port       | ckpt: {port: 70000}                                                                 | ckpt.port: must be 0..65535"
  })
  void badFacilityKeysAreNamed(String name, String yaml, String message) {
    assertThatThrownBy(() -> parse(yaml)).isInstanceOf(ConfigException.class).hasMessageContaining(message);
  }
}
