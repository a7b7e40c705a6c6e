package io.fleetscope.agent.collectors.coolant;

import io.fleetscope.avro.CoolantReading;
import java.util.List;

/** Pure: a {@link ModbusImage} and a register map to one {@link CoolantReading}. */
public final class ModbusDecoder {

  private ModbusDecoder() {}

  public static CoolantReading decode(
      ModbusImage image, List<ModbusRegisterSpec> map, String device, String loop, long ts, String cluster) {
    CoolantReading.Builder b = CoolantReading.newBuilder().setTs(ts).setCluster(cluster).setDevice(device)
        .setAgentSeq(0L).setSource("modbus").setLoop(loop);
    for (ModbusRegisterSpec spec : map) {
      if (spec.type() == ModbusRegisterSpec.Type.BOOL) {
        b.setLeakDetected(bool(image, spec));
        continue;
      }
      Double v = number(image, spec);
      switch (spec.field()) {
        case "supply_temp_c" -> b.setSupplyTempC(v);
        case "return_temp_c" -> b.setReturnTempC(v);
        case "flow_lpm" -> b.setFlowLpm(v);
        case "pressure_diff_kpa" -> b.setPressureDiffKpa(v);
        case "pump_speed_pct" -> b.setPumpSpeedPct(v);
        case "heat_load_kw" -> b.setHeatLoadKw(v);
        default -> throw new IllegalStateException("unchecked field " + spec.field());
      }
    }
    return b.build();
  }

  static Boolean bool(ModbusImage image, ModbusRegisterSpec spec) {
    if (spec.table().isBits()) {
      return image.bit(spec.table(), spec.address());
    }
    Integer w = image.word(spec.table(), spec.address());
    return w == null ? null : w != 0;
  }

  static Double number(ModbusImage image, ModbusRegisterSpec spec) {
    Integer w0 = image.word(spec.table(), spec.address());
    if (w0 == null) {
      return null;
    }
    double raw;
    switch (spec.type()) {
      case UINT16 -> raw = w0;
      case INT16 -> raw = (short) (int) w0;
      default -> {
        Integer w1 = image.word(spec.table(), spec.address() + 1);
        if (w1 == null) {
          return null;
        }
        int hi = spec.littleWordOrder() ? w1 : w0;
        int lo = spec.littleWordOrder() ? w0 : w1;
        int bits = (hi << 16) | lo;
        raw = switch (spec.type()) {
          case UINT32 -> Integer.toUnsignedLong(bits);
          case INT32 -> bits;
          case FLOAT32 -> Float.intBitsToFloat(bits);
          default -> throw new IllegalStateException("unchecked type " + spec.type());
        };
        if (Double.isNaN(raw) || Double.isInfinite(raw)) {
          return null;
        }
      }
    }
    return Math.round(raw * spec.scale() * 1e6) / 1e6;
  }
}
