package io.fleetscope.agent.collectors.coolant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.ghgande.j2mod.modbus.procimg.SimpleDigitalOut;
import com.ghgande.j2mod.modbus.procimg.SimpleInputRegister;
import com.ghgande.j2mod.modbus.procimg.SimpleProcessImage;
import com.ghgande.j2mod.modbus.procimg.SimpleRegister;
import com.ghgande.j2mod.modbus.slave.ModbusSlave;
import com.ghgande.j2mod.modbus.slave.ModbusSlaveFactory;
import io.fleetscope.agent.collectors.redfish.MockupServer;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coolant collector against real peers: a JDK HTTP server serving the DMTF cooling-unit
 * mockup (basic auth), and a j2mod Modbus TCP slave on a free port loaded with the register values
 * stated below.
 */
class CoolantCollectorIT {

  @TempDir Path tmp;

  @Test
  void pollsTheCduMockupOverHttp() throws Exception {
    try (MockupServer server = MockupServer.ofResource("/coolant/dmtf-public-cooling-unit", "fleet", "pw-123");
         CoolantCollector collector = new CoolantCollector(redfishConfig(server.baseUrl()), env(), Duration.ofSeconds(5))) {
      List<AgentRecord> all = collector.collect(new CollectContext(1000L, "c1", "facility-a"));
      List<AgentRecord> records = all.stream().filter(r -> r.topic().equals(Topics.COOLANT)).toList();
      assertThat(all.stream().filter(r -> r.topic().equals(Topics.INVENTORY)).toList()).singleElement().satisfies(r -> {
        assertThat(r.key()).isEqualTo("cdu-1");
        assertThat(r.value().toString()).contains("\"kind\": \"cdu\"").contains("\"cdu_loop\": \"primary-1,row-a-tcs\"")
            .contains("\"racks\": [\"R4\", \"R5\"]");
      });

      assertThat(records).allSatisfy(r -> {
        assertThat(r.topic()).isEqualTo(Topics.COOLANT);
        assertThat(r.key()).isEqualTo("cdu-1");
      });
      assertThat(CoolantRecords.lines(records.stream().map(r -> (CoolantReading) r.value()).toList()))
          .containsExactlyElementsOf(RedfishCduParserTest.MOCKUP_RECORDS);
      assertThat(server.unauthorized()).isZero();
    }
  }

  @Test
  void readsTheRegisterMapFromARealModbusSlaveAndSeesChangesNextRound() throws Exception {
    int port = freeTcpPort();
    float flow = 118.5f;
    int flowBits = Float.floatToIntBits(flow);
    SimpleProcessImage image = new SimpleProcessImage(1);
    image.addRegister(100, new SimpleRegister(285));      // supply 28.5 C (tenths)
    image.addRegister(101, new SimpleRegister(372));      // return 37.2 C (tenths, int16)
    image.addRegister(102, new SimpleRegister(1250));     // delta p 125.0 kPa (tenths)
    image.addRegister(103, new SimpleRegister(655));      // pump 65.5 % (tenths)
    image.addInputRegister(200, new SimpleInputRegister(flowBits >>> 16));   // flow float32, high word first
    image.addInputRegister(201, new SimpleInputRegister(flowBits & 0xFFFF));
    image.addInputRegister(210, new SimpleInputRegister(12345));  // heat load uint32 little word order, low word
    image.addInputRegister(211, new SimpleInputRegister(0));      //   high word -> 12345 * 0.01 = 123.45 kW
    SimpleDigitalOut leak = new SimpleDigitalOut(false);
    image.addDigitalOut(0, leak);                                  // coil 0: leak

    ModbusSlave slave = ModbusSlaveFactory.createTCPSlave(InetAddress.getLoopbackAddress(), port, 2, false);
    slave.addProcessImage(1, image);
    slave.open();
    try (CoolantCollector collector = new CoolantCollector(modbusConfig(port), env(), Duration.ofSeconds(3))) {
      List<AgentRecord> all1 = collector.collect(new CollectContext(1000L, "c1", "facility-a"));
      assertThat(all1).extracting(AgentRecord::topic).containsExactly(Topics.COOLANT, Topics.INVENTORY);
      List<AgentRecord> round1 = all1.subList(0, 1);
      assertThat(round1).singleElement().satisfies(r -> {
        assertThat(r.topic()).isEqualTo(Topics.COOLANT);
        assertThat(r.key()).isEqualTo("cdu-mb-1");
        assertThat(CoolantRecords.line((CoolantReading) r.value())).isEqualTo(
            "device=cdu-mb-1 loop=row-b-tcs source=modbus supply_temp_c=28.5 return_temp_c=37.2 flow_lpm=118.5"
                + " pressure_diff_kpa=125.0 pump_speed_pct=65.5 heat_load_kw=123.45 leak_detected=false");
      });

      leak.set(true);
      image.setRegister(100, new SimpleRegister(301));
      List<AgentRecord> round2 = collector.collect(new CollectContext(2000L, "c1", "facility-a"));
      assertThat(round2).extracting(AgentRecord::topic).containsExactly(Topics.COOLANT);
      CoolantReading r2 = (CoolantReading) round2.get(0).value();
      assertThat(r2.getLeakDetected()).isTrue();
      assertThat(r2.getSupplyTempC()).isEqualTo(30.1);
      assertThat(r2.getTs()).isEqualTo(2000L);

      slave.close();
      assertThatThrownBy(() -> collector.collect(new CollectContext(3000L, "c1", "facility-a")))
          .hasMessageContaining("all 1 CDUs failed").hasMessageContaining("Modbus read from 127.0.0.1:" + port);
    } finally {
      ModbusSlaveFactory.close(slave);
    }
  }

  private static CoolantConfig redfishConfig(String baseUrl) throws Exception {
    CoolantConfig.RedfishTarget t = new CoolantConfig.RedfishTarget();
    t.device = "cdu-1";
    t.baseUrl = baseUrl;
    t.username = "fleet";
    t.password = "pw-123";
    t.loops = Map.of("secondary-1", "row-a-tcs");
    t.racks = List.of("R4", "R5");
    CoolantConfig c = new CoolantConfig();
    c.redfish.add(t);
    c.validate("coolant");
    return c;
  }

  private static CoolantConfig modbusConfig(int port) throws Exception {
    CoolantConfig.ModbusTarget t = new CoolantConfig.ModbusTarget();
    t.device = "cdu-mb-1";
    t.loop = "row-b-tcs";
    t.host = "127.0.0.1";
    t.port = port;
    t.unitId = 1;
    t.registers = List.of(
        ModbusDecoderTest.reg("supply_temp_c", 100, "holding", "uint16", 0.1, "big"),
        ModbusDecoderTest.reg("return_temp_c", 101, "holding", "int16", 0.1, "big"),
        ModbusDecoderTest.reg("pressure_diff_kpa", 102, "holding", "uint16", 0.1, "big"),
        ModbusDecoderTest.reg("pump_speed_pct", 103, "holding", "uint16", 0.1, "big"),
        ModbusDecoderTest.reg("flow_lpm", 200, "input", "float32", 1, "big"),
        ModbusDecoderTest.reg("heat_load_kw", 210, "input", "uint32", 0.01, "little"),
        ModbusDecoderTest.reg("leak_detected", 0, "coil", "bool", 1, "big"));
    CoolantConfig c = new CoolantConfig();
    c.modbus.add(t);
    c.validate("coolant");
    return c;
  }

  private AgentEnv env() {
    AgentConfig a = new AgentConfig();
    a.cluster = "c1";
    a.node = "facility-a";
    a.baseDir = tmp;
    return new AgentEnv(a);
  }

  private static int freeTcpPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
