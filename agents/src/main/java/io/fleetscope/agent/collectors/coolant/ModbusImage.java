package io.fleetscope.agent.collectors.coolant;

import java.util.HashMap;
import java.util.Map;

/** Raw values read from one Modbus device: 16-bit words per register table, bits per coil table. */
public final class ModbusImage {
  private final Map<ModbusRegisterSpec.Table, Map<Integer, Integer>> words = new HashMap<>();
  private final Map<ModbusRegisterSpec.Table, Map<Integer, Boolean>> bits = new HashMap<>();

  public ModbusImage putWord(ModbusRegisterSpec.Table table, int address, int value) {
    words.computeIfAbsent(table, t -> new HashMap<>()).put(address, value & 0xFFFF);
    return this;
  }

  public ModbusImage putBit(ModbusRegisterSpec.Table table, int address, boolean value) {
    bits.computeIfAbsent(table, t -> new HashMap<>()).put(address, value);
    return this;
  }

  /** Unsigned 16-bit word, or null when it was not read. */
  public Integer word(ModbusRegisterSpec.Table table, int address) {
    return words.getOrDefault(table, Map.of()).get(address);
  }

  public Boolean bit(ModbusRegisterSpec.Table table, int address) {
    return bits.getOrDefault(table, Map.of()).get(address);
  }
}
