package io.fleetscope.agent.collectors.coolant;

import io.fleetscope.agent.collectors.facility.FacilityInventory;
import io.fleetscope.agent.collectors.redfish.RedfishClient;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collector {@code coolant}: every configured Redfish and Modbus CDU. A CDU that fails is logged
 * (one line) and skipped; the round fails only when every CDU failed.
 */
public final class CoolantCollector implements Collector {

  private static final Logger log = LoggerFactory.getLogger(CoolantCollector.class);

  private record RedfishCdu(CoolantConfig.RedfishTarget cfg, RedfishClient client) {}

  private record ModbusCdu(CoolantConfig.ModbusTarget cfg, List<ModbusRegisterSpec> map, ModbusGatherer gatherer) {}

  private final List<RedfishCdu> redfish = new ArrayList<>();
  private final List<ModbusCdu> modbus = new ArrayList<>();
  /** Devices whose inventory record was already published by this process. */
  private final java.util.Set<String> announced = new java.util.HashSet<>();

  public CoolantCollector(CoolantConfig config, AgentEnv env) throws ConfigException {
    this(config, env, config.effectiveTimeout(env.agent()));
  }

  CoolantCollector(CoolantConfig config, AgentEnv env, Duration timeout) throws ConfigException {
    for (CoolantConfig.RedfishTarget t : config.redfish) {
      String base = t.baseUrl.startsWith("file:") ? env.resolve(Path.of(t.baseUrl.substring(5))).toUri().toString() : t.baseUrl;
      redfish.add(new RedfishCdu(t, new RedfishClient(base, t.username, t.password, t.tlsInsecure, timeout)));
    }
    for (int i = 0; i < config.modbus.size(); i++) {
      CoolantConfig.ModbusTarget t = config.modbus.get(i);
      List<ModbusRegisterSpec> map = new ArrayList<>();
      for (int j = 0; j < t.registers.size(); j++) {
        map.add(ModbusRegisterSpec.of(t.registers.get(j), "coolant.modbus[" + i + "].registers[" + j + "]"));
      }
      modbus.add(new ModbusCdu(t, List.copyOf(map), new ModbusGatherer(t, timeout)));
    }
  }

  @Override
  public String name() {
    return "coolant";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<AgentRecord> out = new ArrayList<>();
    int failed = 0;
    Exception last = null;
    for (RedfishCdu c : redfish) {
      try {
        List<CoolantReading> rs = RedfishCduParser.parse(RedfishCduGatherer.gather(c.client()), c.cfg().device, c.cfg().loops, ctx.ts(), ctx.cluster());
        rs.forEach(r -> out.add(new AgentRecord(Topics.COOLANT, r.getDevice().toString(), r)));
        java.util.Map<String, List<String>> loopsByDevice = new java.util.LinkedHashMap<>();
        rs.forEach(r -> loopsByDevice.computeIfAbsent(r.getDevice().toString(), d -> new ArrayList<>()).add(r.getLoop().toString()));
        loopsByDevice.forEach((device, loops) -> announce(out, ctx, device, c.cfg().racks, String.join(",", loops), "redfish"));
      } catch (IOException e) {
        failed++;
        last = e;
        log.warn("coolant redfish failed device={} url={} reason=\"{}\"", c.cfg().device, c.cfg().baseUrl, e.getMessage());
      }
    }
    for (ModbusCdu c : modbus) {
      try {
        CoolantReading r = ModbusDecoder.decode(c.gatherer().read(c.map()), c.map(), c.cfg().device, c.cfg().loop, ctx.ts(), ctx.cluster());
        out.add(new AgentRecord(Topics.COOLANT, c.cfg().device, r));
        announce(out, ctx, c.cfg().device, c.cfg().racks, c.cfg().loop, "modbus");
      } catch (IOException e) {
        failed++;
        last = e;
        log.warn("coolant modbus failed device={} host={} reason=\"{}\"", c.cfg().device, c.cfg().host, e.getMessage());
      }
    }
    int total = redfish.size() + modbus.size();
    if (total > 0 && failed == total) {
      throw new IOException("all " + total + " CDUs failed; last: " + last.getMessage(), last);
    }
    return out;
  }

  private void announce(List<AgentRecord> out, CollectContext ctx, String device, List<String> racks, String loops, String protocol) {
    if (announced.add(device)) {
      out.add(new AgentRecord(Topics.INVENTORY, device, FacilityInventory.build(ctx.ts(), ctx.cluster(), "cdu", device, null, racks,
          loops, java.util.Map.of("protocol", protocol))));
    }
  }

  @Override
  public void close() {
    modbus.forEach(c -> c.gatherer().close());
  }
}
