package io.fleetscope.agent.collectors.coolant;

import io.fleetscope.agent.collectors.redfish.RedfishClient;
import io.fleetscope.agent.config.Checks;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Section {@code coolant}: coolant distribution units polled over Redfish ThermalEquipment and
 * Modbus TCP. Every key and default is documented in agents/README.md under "### coolant".
 */
public final class CoolantConfig extends CollectorConfig {

  /** CDUs exposing /redfish/v1/ThermalEquipment/CDUs. */
  public List<RedfishTarget> redfish = new ArrayList<>();
  /** CDUs read over Modbus TCP with a register map. */
  public List<ModbusTarget> modbus = new ArrayList<>();

  /** One Redfish service with one or more CDUs. */
  public static final class RedfishTarget {
    /** Facility device id; with several CDUs on one service each becomes DEVICE-ID. Required. */
    public String device;
    /** Racks this CDU cools, for fleet.inventory.v1. */
    public List<String> racks = new ArrayList<>();
    /** Service root, e.g. https://10.1.2.4, or file:DIR for a DMTF mockup. Required. */
    public String baseUrl;
    /** Basic-auth user. Optional. */
    public String username;
    /** Basic-auth password. Optional. */
    public String password;
    /** Accept any TLS certificate. Default false. */
    public boolean tlsInsecure = false;
    /**
     * Loop ids by connector, from the site file: keys {@code primary-<Id>} / {@code secondary-<Id>}
     * (the connector's Redfish Id), values the site's loop id. Unmapped connectors keep the key as
     * their loop id.
     */
    public Map<String, String> loops = new LinkedHashMap<>();
  }

  /** One Modbus TCP CDU. */
  public static final class ModbusTarget {
    /** Facility device id, the record key. Required. */
    public String device;
    /** Racks this CDU cools, for fleet.inventory.v1. */
    public List<String> racks = new ArrayList<>();
    /** Coolant loop id (the record's loop). Required. */
    public String loop;
    /** Host name or address. Required. */
    public String host;
    /** TCP port. Default 502. */
    public int port = 502;
    /** Modbus unit id (slave id). Default 1. */
    public int unitId = 1;
    /** Register map: which register holds which field. Required. */
    public List<ModbusRegister> registers = new ArrayList<>();
  }

  /** One entry of a Modbus register map. */
  public static final class ModbusRegister {
    /** Record field: supply_temp_c, return_temp_c, flow_lpm, pressure_diff_kpa, pump_speed_pct, heat_load_kw, leak_detected. */
    public String field;
    /** 0-based register (or coil) address as in the vendor's map (protocol address, not 4xxxx numbering). */
    public int register = -1;
    /** holding (function 3), input (4), coil (1) or discrete (2). Default holding. */
    public String table = "holding";
    /** uint16, int16, uint32, int32, float32 (two registers) or bool (nonzero / coil set). Default uint16. */
    public String type = "uint16";
    /** Multiplier applied to the raw value, e.g. 0.1 for tenths. Default 1. */
    public double scale = 1.0;
    /** For 32-bit types: big (high word first) or little. Default big. */
    public String wordOrder = "big";
  }

  @Override
  public void validate(String section) throws ConfigException {
    super.validate(section);
    Set<String> devices = new HashSet<>();
    for (int i = 0; i < redfish.size(); i++) {
      RedfishTarget t = redfish.get(i);
      String at = section + ".redfish[" + i + "]";
      Checks.notBlank(at + ".device", t.device);
      if (!devices.add(t.device)) {
        throw new ConfigException(at + ".device", "duplicate device id '" + t.device + "'");
      }
      RedfishClient.checkBaseUrl(at + ".base_url", t.baseUrl);
      if (t.password != null && t.username == null) {
        throw new ConfigException(at + ".username", "is required when password is set");
      }
      for (String k : t.loops.keySet()) {
        if (!k.matches("(primary|secondary)-.+")) {
          throw new ConfigException(at + ".loops." + k, "keys are primary-<connector Id> or secondary-<connector Id>");
        }
      }
    }
    for (int i = 0; i < modbus.size(); i++) {
      ModbusTarget t = modbus.get(i);
      String at = section + ".modbus[" + i + "]";
      Checks.notBlank(at + ".device", t.device);
      if (!devices.add(t.device)) {
        throw new ConfigException(at + ".device", "duplicate device id '" + t.device + "'");
      }
      Checks.notBlank(at + ".loop", t.loop);
      Checks.notBlank(at + ".host", t.host);
      if (t.port < 1 || t.port > 65535) {
        throw new ConfigException(at + ".port", "must be 1..65535, got " + t.port);
      }
      if (t.unitId < 0 || t.unitId > 255) {
        throw new ConfigException(at + ".unit_id", "must be 0..255, got " + t.unitId);
      }
      if (t.registers.isEmpty()) {
        throw new ConfigException(at + ".registers", "needs at least one entry (field, register, type, scale)");
      }
      Set<String> fields = new HashSet<>();
      for (int j = 0; j < t.registers.size(); j++) {
        ModbusRegisterSpec.of(t.registers.get(j), at + ".registers[" + j + "]");
        if (!fields.add(t.registers.get(j).field)) {
          throw new ConfigException(at + ".registers[" + j + "].field", "field '" + t.registers.get(j).field + "' is mapped twice");
        }
      }
    }
  }

}
