package io.fleetscope.agent.collectors.coolant;

import io.fleetscope.agent.config.ConfigException;
import java.util.List;
import java.util.Locale;

/** A validated register-map entry. */
public record ModbusRegisterSpec(
    String field, int address, Table table, Type type, double scale, boolean littleWordOrder) {

  public static final List<String> FIELDS = List.of(
      "supply_temp_c", "return_temp_c", "flow_lpm", "pressure_diff_kpa", "pump_speed_pct", "heat_load_kw", "leak_detected");

  /** Modbus data tables. */
  public enum Table { HOLDING, INPUT, COIL, DISCRETE;
    boolean isBits() {
      return this == COIL || this == DISCRETE;
    }
  }

  /** Register encodings. */
  public enum Type {
    UINT16(1), INT16(1), UINT32(2), INT32(2), FLOAT32(2), BOOL(1);
    final int words;

    Type(int words) {
      this.words = words;
    }
  }

  /** Number of 16-bit registers (or bits) this entry spans. */
  public int width() {
    return table.isBits() ? 1 : type.words;
  }

  static ModbusRegisterSpec of(CoolantConfig.ModbusRegister r, String at) throws ConfigException {
    if (r.field == null || !FIELDS.contains(r.field)) {
      throw new ConfigException(at + ".field", "must be one of " + FIELDS + ", got '" + r.field + "'");
    }
    if (r.register < 0 || r.register > 65535) {
      throw new ConfigException(at + ".register", "must be a 0-based address 0..65535, got " + r.register);
    }
    Table table;
    try {
      table = Table.valueOf(r.table.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new ConfigException(at + ".table", "must be holding, input, coil or discrete, got '" + r.table + "'");
    }
    Type type;
    try {
      type = Type.valueOf(r.type.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new ConfigException(at + ".type", "must be uint16, int16, uint32, int32, float32 or bool, got '" + r.type + "'");
    }
    if (table.isBits() && type != Type.BOOL) {
      throw new ConfigException(at + ".type", "a " + r.table + " holds one bit: use type bool");
    }
    boolean leak = r.field.equals("leak_detected");
    if (leak != (type == Type.BOOL)) {
      throw new ConfigException(at + ".type", leak ? "leak_detected needs type bool" : "type bool only fits leak_detected");
    }
    if (!"big".equals(r.wordOrder) && !"little".equals(r.wordOrder)) {
      throw new ConfigException(at + ".word_order", "must be big or little, got '" + r.wordOrder + "'");
    }
    if (r.scale == 0 || Double.isNaN(r.scale) || Double.isInfinite(r.scale)) {
      throw new ConfigException(at + ".scale", "must be a finite non-zero number, got " + r.scale);
    }
    return new ModbusRegisterSpec(r.field, r.register, table, type, r.scale, "little".equals(r.wordOrder));
  }
}
