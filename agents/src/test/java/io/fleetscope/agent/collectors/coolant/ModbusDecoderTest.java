package io.fleetscope.agent.collectors.coolant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.avro.CoolantReading;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModbusDecoderTest {

  static CoolantConfig.ModbusRegister reg(String field, int address, String table, String type, double scale, String order) {
    CoolantConfig.ModbusRegister r = new CoolantConfig.ModbusRegister();
    r.field = field;
    r.register = address;
    r.table = table;
    r.type = type;
    r.scale = scale;
    r.wordOrder = order;
    return r;
  }

  static ModbusRegisterSpec spec(CoolantConfig.ModbusRegister r) throws ConfigException {
    return ModbusRegisterSpec.of(r, "t");
  }

  @Test
  void decodesEveryEncoding() throws Exception {
    float flow = 41.75f;
    int bits = Float.floatToIntBits(flow);
    ModbusImage img = new ModbusImage()
        .putWord(ModbusRegisterSpec.Table.HOLDING, 0, 315)                 // 31.5 C in tenths
        .putWord(ModbusRegisterSpec.Table.HOLDING, 1, (short) -25 & 0xFFFF) // -2.5 C as int16 tenths
        .putWord(ModbusRegisterSpec.Table.INPUT, 10, bits >>> 16)          // float32 big-endian
        .putWord(ModbusRegisterSpec.Table.INPUT, 11, bits & 0xFFFF)
        .putWord(ModbusRegisterSpec.Table.HOLDING, 20, 0x0001)             // uint32 little word order: low word first
        .putWord(ModbusRegisterSpec.Table.HOLDING, 21, 0x0002)             // -> 0x0002_0001 = 131073
        .putBit(ModbusRegisterSpec.Table.DISCRETE, 5, true);
    List<ModbusRegisterSpec> map = List.of(
        spec(reg("supply_temp_c", 0, "holding", "uint16", 0.1, "big")),
        spec(reg("return_temp_c", 1, "holding", "int16", 0.1, "big")),
        spec(reg("flow_lpm", 10, "input", "float32", 1, "big")),
        spec(reg("heat_load_kw", 20, "holding", "uint32", 0.001, "little")),
        spec(reg("leak_detected", 5, "discrete", "bool", 1, "big")));

    CoolantReading r = ModbusDecoder.decode(img, map, "cdu-m", "loop-a", 7L, "c1");

    assertThat(r.getSupplyTempC()).isEqualTo(31.5);
    assertThat(r.getReturnTempC()).isEqualTo(-2.5);
    assertThat(r.getFlowLpm()).isEqualTo(41.75);
    assertThat(r.getHeatLoadKw()).isEqualTo(131.073);
    assertThat(r.getLeakDetected()).isTrue();
    assertThat(r.getPressureDiffKpa()).isNull();
    assertThat(r.getLoop().toString()).isEqualTo("loop-a");
  }

  @Test
  void registersThatWereNotReadStayNull() throws Exception {
    CoolantReading r = ModbusDecoder.decode(new ModbusImage(), List.of(spec(reg("flow_lpm", 3, "holding", "uint32", 1, "big"))),
        "d", "l", 1L, "c");
    assertThat(r.getFlowLpm()).isNull();
  }

  @Test
  void badMapEntriesNameTheKey() {
    assertThatThrownBy(() -> spec(reg("flow", 0, "holding", "uint16", 1, "big"))).hasMessageStartingWith("t.field");
    assertThatThrownBy(() -> spec(reg("flow_lpm", 0, "holding", "uint64", 1, "big"))).hasMessageStartingWith("t.type");
    assertThatThrownBy(() -> spec(reg("flow_lpm", 0, "coil", "uint16", 1, "big"))).hasMessageContaining("use type bool");
    assertThatThrownBy(() -> spec(reg("leak_detected", 0, "holding", "uint16", 1, "big"))).hasMessageContaining("needs type bool");
    assertThatThrownBy(() -> spec(reg("flow_lpm", -1, "holding", "uint16", 1, "big"))).hasMessageStartingWith("t.register");
    assertThatThrownBy(() -> spec(reg("flow_lpm", 0, "holding", "uint16", 0, "big"))).hasMessageStartingWith("t.scale");
    assertThatThrownBy(() -> spec(reg("flow_lpm", 0, "holding", "float32", 1, "middle"))).hasMessageStartingWith("t.word_order");
  }
}
