package io.fleetscope.agent.collectors.coolant;

import com.ghgande.j2mod.modbus.facade.ModbusTCPMaster;
import com.ghgande.j2mod.modbus.procimg.InputRegister;
import com.ghgande.j2mod.modbus.util.BitVector;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;

/**
 * Gathering only: reads the registers and bits a register map needs from one Modbus TCP device
 * (j2mod master), one request per contiguous run of addresses (at most 125 registers or 2000 bits each).
 * Connects lazily and reconnects on the next round after an error.
 */
public final class ModbusGatherer implements Closeable {

  static final int MAX_REGISTERS = 125;
  static final int MAX_BITS = 2000;

  private final CoolantConfig.ModbusTarget cfg;
  private final Duration timeout;
  private ModbusTCPMaster master;

  public ModbusGatherer(CoolantConfig.ModbusTarget cfg, Duration timeout) {
    this.cfg = cfg;
    this.timeout = timeout;
  }

  public ModbusImage read(List<ModbusRegisterSpec> map) throws IOException {
    try {
      if (master == null) {
        ModbusTCPMaster m = new ModbusTCPMaster(cfg.host, cfg.port, (int) timeout.toMillis(), false);
        m.setRetries(0);
        m.connect();
        master = m;
      }
      ModbusImage image = new ModbusImage();
      for (ModbusRegisterSpec.Table table : ModbusRegisterSpec.Table.values()) {
        TreeSet<Integer> addresses = new TreeSet<>();
        for (ModbusRegisterSpec s : map) {
          if (s.table() == table) {
            for (int k = 0; k < s.width(); k++) {
              addresses.add(s.address() + k);
            }
          }
        }
        readSpans(table, addresses, image);
      }
      return image;
    } catch (Exception e) {
      close();
      throw new IOException("Modbus read from " + cfg.host + ":" + cfg.port + " unit " + cfg.unitId + " failed: " + e.getMessage(), e);
    }
  }

  private void readSpans(ModbusRegisterSpec.Table table, TreeSet<Integer> addresses, ModbusImage image) throws Exception {
    int max = table.isBits() ? MAX_BITS : MAX_REGISTERS;
    while (!addresses.isEmpty()) {
      int start = addresses.first();
      int end = start;
      // contiguous runs only: many devices answer "illegal data address" for a gap inside a request
      while (addresses.contains(end + 1) && end + 1 - start < max) {
        end++;
      }
      int count = end - start + 1;
      switch (table) {
        case HOLDING -> put(table, start, master.readMultipleRegisters(cfg.unitId, start, count), image);
        case INPUT -> put(table, start, master.readInputRegisters(cfg.unitId, start, count), image);
        case COIL -> put(table, start, master.readCoils(cfg.unitId, start, count), count, image);
        case DISCRETE -> put(table, start, master.readInputDiscretes(cfg.unitId, start, count), count, image);
        default -> throw new IllegalStateException();
      }
      addresses.headSet(end, true).clear();
    }
  }

  private static void put(ModbusRegisterSpec.Table t, int start, InputRegister[] regs, ModbusImage image) {
    for (int i = 0; i < regs.length; i++) {
      image.putWord(t, start + i, regs[i].toUnsignedShort());
    }
  }

  private static void put(ModbusRegisterSpec.Table t, int start, BitVector bits, int count, ModbusImage image) {
    for (int i = 0; i < count && i < bits.size(); i++) {
      image.putBit(t, start + i, bits.getBit(i));
    }
  }

  @Override
  public void close() {
    if (master != null) {
      master.disconnect();
      master = null;
    }
  }
}
