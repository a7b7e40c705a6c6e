package io.fleetscope.agent.collectors.pdu;

import io.fleetscope.agent.collectors.facility.FacilityInventory;
import io.fleetscope.agent.collectors.redfish.RedfishClient;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.PduReading;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collector {@code pdu}: every configured SNMP and Redfish PDU, one after the other. A PDU that
 * fails is logged (one line) and skipped; the round fails only when every PDU failed.
 */
public final class PduCollector implements Collector {

  private static final Logger log = LoggerFactory.getLogger(PduCollector.class);

  /** gatherer is null when the target replays a capture file. */
  private record SnmpPdu(PduConfig.SnmpTarget cfg, OidMap map, SnmpGatherer gatherer, Path replay) {}

  private record RedfishPdu(PduConfig.RedfishTarget cfg, RedfishClient client) {}

  private final List<SnmpPdu> snmp = new ArrayList<>();
  private final List<RedfishPdu> redfish = new ArrayList<>();
  /** SNMP sessions by credential key, shared by the targets that use the same credentials. */
  private final java.util.Map<String, SnmpGatherer.Session> sessions = new java.util.LinkedHashMap<>();
  /** Devices whose inventory record was already published by this process. */
  private final java.util.Set<String> announced = new java.util.HashSet<>();

  public PduCollector(PduConfig config, AgentEnv env) throws IOException, ConfigException {
    this(config, env, config.effectiveTimeout(env.agent()));
  }

  PduCollector(PduConfig config, AgentEnv env, Duration timeout) throws IOException, ConfigException {
    try {
      for (int i = 0; i < config.snmp.size(); i++) {
        PduConfig.SnmpTarget t = config.snmp.get(i);
        OidMap map;
        if (t.oidMapFile != null) {
          Path p = env.resolve(t.oidMapFile);
          try {
            map = OidMap.parse(Files.readAllBytes(p), p.toString());
          } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("pdu.snmp[" + i + "].oid_map_file", e.getMessage());
          }
        } else {
          map = OidMap.builtIn(t.vendor);
        }
        if (t.replayFile != null) {
          Path replay = env.resolve(t.replayFile);
          if (!Files.isReadable(replay)) {
            throw new ConfigException("pdu.snmp[" + i + "].replay_file", "cannot read " + replay);
          }
          snmp.add(new SnmpPdu(t, map, null, replay));
        } else {
          String key = SnmpGatherer.Session.key(t);
          SnmpGatherer.Session session = sessions.get(key);
          if (session == null) {
            session = SnmpGatherer.Session.open(t);
            sessions.put(key, session);
          }
          snmp.add(new SnmpPdu(t, map, new SnmpGatherer(t, session), null));
        }
      }
      for (PduConfig.RedfishTarget t : config.redfish) {
        String base = t.baseUrl.startsWith("file:") ? env.resolve(Path.of(t.baseUrl.substring(5))).toUri().toString() : t.baseUrl;
        redfish.add(new RedfishPdu(t, new RedfishClient(base, t.username, t.password, t.tlsInsecure, timeout)));
      }
    } catch (IOException | ConfigException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Number of snmp4j sessions (UDP sockets and listener threads) this collector holds. */
  int snmpSessions() {
    return sessions.size();
  }

  @Override
  public String name() {
    return "pdu";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<AgentRecord> out = new ArrayList<>();
    int failed = 0;
    Exception last = null;
    for (SnmpPdu p : snmp) {
      long t0 = System.nanoTime();
      try {
        SnmpWalk walk = p.replay() != null
            ? SnmpWalk.parseSnmprec(Files.readString(p.replay(), java.nio.charset.StandardCharsets.ISO_8859_1))
            : p.gatherer().walk(p.map().columns());
        List<PduReading> rs = SnmpPduParser.parse(walk, p.map(), new PduTarget(p.cfg().device, p.cfg().rack),
            ctx.ts(), ctx.cluster(), "snmp-" + p.map().vendor());
        rs.forEach(r -> out.add(new AgentRecord(Topics.PDU, r.getDevice().toString(), r)));
        announce(out, ctx, p.cfg().device, p.cfg().rack, p.cfg().racks,
            java.util.Map.of("protocol", "snmp-" + p.cfg().version, "oid_map", p.map().vendor()));
        log.debug("pdu snmp device={} vars={} records={} ms={}", p.cfg().device, walk.size(), rs.size(), (System.nanoTime() - t0) / 1_000_000);
      } catch (IOException | IllegalArgumentException e) {
        failed++;
        last = e;
        log.warn("pdu snmp failed device={} host={} reason=\"{}\"", p.cfg().device, p.replay() != null ? p.replay() : p.cfg().host, e.getMessage());
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("pdu round interrupted at its deadline");
      }
    }
    for (RedfishPdu p : redfish) {
      try {
        List<RackPduDocs> docs = RedfishPduGatherer.gather(p.client());
        List<PduReading> rs = RedfishPduParser.parse(docs, new PduTarget(p.cfg().device, p.cfg().rack), ctx.ts(), ctx.cluster());
        rs.forEach(r -> out.add(new AgentRecord(Topics.PDU, r.getDevice().toString(), r)));
        for (String device : new java.util.LinkedHashSet<>(rs.stream().map(r -> r.getDevice().toString()).toList())) {
          announce(out, ctx, device, p.cfg().rack, p.cfg().racks, java.util.Map.of("protocol", "redfish"));
        }
      } catch (IOException e) {
        failed++;
        last = e;
        log.warn("pdu redfish failed device={} url={} reason=\"{}\"", p.cfg().device, p.cfg().baseUrl, e.getMessage());
      }
    }
    int total = snmp.size() + redfish.size();
    if (total > 0 && failed == total) {
      throw new IOException("all " + total + " PDUs failed; last: " + last.getMessage(), last);
    }
    return out;
  }

  private void announce(List<AgentRecord> out, CollectContext ctx, String device, String rack, List<String> racks,
      java.util.Map<String, String> attributes) {
    if (announced.add(device)) {
      out.add(new AgentRecord(Topics.INVENTORY, device,
          FacilityInventory.build(ctx.ts(), ctx.cluster(), "pdu", device, rack, racks, null, attributes)));
    }
  }

  @Override
  public void close() {
    for (SnmpGatherer.Session s : sessions.values()) {
      try {
        s.close();
      } catch (IOException e) {
        log.warn("pdu snmp close failed reason=\"{}\"", e.getMessage());
      }
    }
  }
}
