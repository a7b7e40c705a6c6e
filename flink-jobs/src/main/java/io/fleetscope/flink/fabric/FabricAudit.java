package io.fleetscope.flink.fabric;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.PortConfig;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The configuration of the RoCE ports of one rail (pure; no Flink): each port's latest
 * fleet.fabric.config.v1 record, compared field by field with the site policy and with the rail's
 * other ports; FabricConfigDrift (warning) per port and field that breaks the policy or differs
 * from the rail's norm, resolved when a later record of the port shows it fixed. InfiniBand ports'
 * link, capability mask and SL-to-VL table, and every port's active MTU, are judged against the
 * rail's peers only. A field a port does not report (null: its source was not readable) is not judged and keeps its state.
 */
public final class FabricAudit implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String ALERT = "FabricConfigDrift";

  /** Compared fields, in the order they are judged; DCQCN parameters follow as {@code dcqcn.<name>}. */
  static final List<String> FIELDS = List.of("pfc_prios", "trust", "ecn_np_prios", "ecn_rp_prios", "mtu_bytes", "cnp_dscp",
      "rate_gbps", "link_width", "link_speed", "cap_mask", "active_mtu", "sl2vl");
  /** The fields of InfiniBand ports (the kernel's view of the link), judged against the rail's peers only. */
  static final List<String> LINK_FIELDS = List.of("rate_gbps", "link_width", "link_speed", "cap_mask");

  private final TreeMap<String, PortView> ports = new TreeMap<>();
  private final AlertTracker alerts = new AlertTracker();

  /** What is known of one port: where it is and its fields' values as text ("[3]", "dscp", "9000"). */
  record PortView(String cluster, String node, String device, int port, String netdev, Integer rail,
      TreeMap<String, String> values) implements Serializable {}

  /** What a field must be, for the description, and the test of a value. */
  private record Expected(String text, String by, Predicate<String> ok) {}

  /** Takes a port's record and judges every port of the rail again; returns the transitions. */
  public List<Anomaly> onConfig(PortConfig c, FabricSettings cfg, AnomalyFactory f) {
    ports.put(c.getNode() + "/" + c.getDevice() + "/" + c.getPort(), view(c));
    List<Anomaly> out = new ArrayList<>();
    Map<String, Expected> byPolicy = policy(cfg.policy());
    for (String field : fields()) {
      Expected norm = peers(field, cfg, byPolicy.get(field));
      for (PortView p : ports.values()) {
        String v = p.values().get(field);
        if (v == null) continue;
        Expected policy = byPolicy.get(field);
        Expected broken = policy != null && !policy.ok().test(v) ? policy
            : norm != null && !norm.ok().test(v) ? norm : null;
        AnomalyFactory.Draft d = f.alert(ALERT, "warning")
            .label("cluster", p.cluster()).label("node", p.node()).label("device", p.device()).label("port", p.port())
            .label("field", field).context("rail", p.rail()).context("netdev", p.netdev());
        Anomaly a = alerts.update(d, broken != null, c.getTs(), x -> describe(x, p, field, v, broken));
        if (a != null) out.add(a);
      }
    }
    return out;
  }

  /** Number of ports held. */
  public int size() {
    return ports.size();
  }

  public int firing() {
    return alerts.firingCount();
  }

  private List<String> fields() {
    List<String> all = new ArrayList<>(FIELDS);
    java.util.TreeSet<String> dcqcn = new java.util.TreeSet<>();
    for (PortView p : ports.values()) {
      for (String k : p.values().keySet()) if (k.startsWith("dcqcn.")) dcqcn.add(k);
    }
    all.addAll(dcqcn);
    return all;
  }

  private static void describe(AnomalyFactory.Draft d, PortView p, String field, String value, Expected e) {
    String where = p.node() + " " + p.device() + "/" + p.port() + (p.netdev() == null ? "" : " (" + p.netdev() + ")");
    if (e == null) {
      d.summary("fabric configuration of " + where + ": " + field + " is " + value + " again as expected")
          .description(where + " " + field + " = " + value + " follows the site policy and its rail's peers again");
      return;
    }
    d.summary("fabric configuration drift on " + where + ": " + field + " is " + value + ", expected " + e.text() + " (" + e.by() + ")");
    if ("active_mtu".equals(field)) {
      d.description(String.format(Locale.ROOT,
          "Port %s%s runs with an active MTU of %s bytes, but the %s expects %s. Queue pairs take the smaller MTU of the two "
              + "ends, so every transfer with this port is cut into smaller packets (more packets per message, lower "
              + "bandwidth) while its counters look clean. Check the port's MTU cap in the subnet manager's partition "
              + "configuration (InfiniBand) or the interface MTU (RoCE) against its peers (see the runbook); the alert "
              + "resolves when the agent reports the rail's MTU.",
          where, p.rail() == null ? "" : " on rail " + p.rail(), value, e.by(), e.text()));
      return;
    }
    if ("sl2vl".equals(field)) {
      d.description(String.format(Locale.ROOT,
          "InfiniBand port %s%s maps service levels 0-15 to the virtual lanes %s, but the %s expects %s. Traffic of one "
              + "service level then travels on another VL at this port than at its peers, losing the isolation and "
              + "arbitration weight the QoS policy gives it (or sharing VL 0 with everything). Check the subnet manager's "
              + "QoS (qos_sl2vl) and that it has swept this port (see the runbook); the alert resolves when the agent "
              + "reports the rail's table.",
          where, p.rail() == null ? "" : " on rail " + p.rail(), value, e.by(), e.text()));
      return;
    }
    if (LINK_FIELDS.contains(field)) {
      d.description(String.format(Locale.ROOT,
          "InfiniBand port %s%s reports %s = %s, but the %s expects %s. A port that trained at fewer lanes or a lower speed "
              + "than its rail's peers (or runs with other capabilities) slows every collective that crosses it while its "
              + "counters look clean. Reseat or replace the cable or transceiver, or reset the port (see the runbook); the alert "
              + "resolves when the agent reports the link like its peers.",
          where, p.rail() == null ? "" : " on rail " + p.rail(), field, value, e.by(), e.text()));
      return;
    }
    d.description(String.format(Locale.ROOT,
            "RoCE port %s%s reports %s = %s, but the %s expects %s. A lossless fabric needs PFC, trust, ECN/DCQCN and MTU "
                + "set alike on every port of a rail; one port that differs pauses or drops the rail's traffic once it is congested, "
                + "before any counter shows it. Fix the port's configuration (see the runbook); the alert resolves when the "
                + "agent reports the corrected value.",
            where, p.rail() == null ? "" : " on rail " + p.rail(), field, value, e.by(), e.text()));
  }

  /** The rail's norm for a field: the value a quorum of its ports hold, if the policy allows it. */
  private Expected peers(String field, FabricSettings cfg, Expected policy) {
    HashMap<String, Integer> counts = new HashMap<>();
    int n = 0;
    for (PortView p : ports.values()) {
      String v = p.values().get(field);
      if (v == null) continue;
      counts.merge(v, 1, Integer::sum);
      n++;
    }
    if (n < cfg.minRailPorts()) return null;
    String top = null;
    int most = 0;
    for (Map.Entry<String, Integer> e : new TreeMap<>(counts).entrySet()) {
      if (e.getValue() > most) {
        top = e.getKey();
        most = e.getValue();
      }
    }
    if (most * 100.0 < cfg.peerQuorumPct() * n) return null;
    if (policy != null && !policy.ok().test(top)) return null;
    String norm = top;
    return new Expected(norm, String.format(Locale.ROOT, "rail peers (%d of %d ports)", most, n), norm::equals);
  }

  private static Map<String, Expected> policy(FabricSettings.Policy p) {
    Map<String, Expected> m = new HashMap<>();
    String by = "site policy";
    if (p.pfcPrios() != null) {
      String want = p.pfcPrios().toString();
      m.put("pfc_prios", new Expected(want, by, want::equals));
    }
    if (p.trust() != null) m.put("trust", new Expected(p.trust(), by, p.trust()::equals));
    if (p.ecnPrios() != null) {
      Predicate<String> has = v -> parseList(v).containsAll(p.ecnPrios());
      m.put("ecn_np_prios", new Expected("on for " + p.ecnPrios(), by, has));
      m.put("ecn_rp_prios", new Expected("on for " + p.ecnPrios(), by, has));
    }
    if (p.mtuBytes() != null) {
      List<String> allowed = p.mtuBytes().stream().map(String::valueOf).toList();
      m.put("mtu_bytes", new Expected(allowed.size() == 1 ? allowed.get(0) : "one of " + allowed, by, allowed::contains));
    }
    if (p.cnpDscp() != null) {
      String want = String.valueOf(p.cnpDscp());
      m.put("cnp_dscp", new Expected(want, by, want::equals));
    }
    for (Map.Entry<String, Long> e : p.dcqcn().entrySet()) {
      String want = String.valueOf(e.getValue());
      m.put("dcqcn." + e.getKey(), new Expected(want, by, want::equals));
    }
    return m;
  }

  private static List<Integer> parseList(String v) {
    String inner = v.substring(1, v.length() - 1).strip();
    List<Integer> out = new ArrayList<>();
    if (inner.isEmpty()) return out;
    for (String s : inner.split(",")) out.add(Integer.parseInt(s.strip()));
    return out;
  }

  private static PortView view(PortConfig c) {
    TreeMap<String, String> v = new TreeMap<>();
    put(v, "pfc_prios", list(c.getPfcPrios()));
    put(v, "trust", c.getTrust() == null ? null : c.getTrust().toLowerCase(Locale.ROOT));
    put(v, "ecn_np_prios", list(c.getEcnNpPrios()));
    put(v, "ecn_rp_prios", list(c.getEcnRpPrios()));
    put(v, "mtu_bytes", c.getMtuBytes() == null ? null : String.valueOf(c.getMtuBytes()));
    put(v, "cnp_dscp", c.getCnpDscp() == null ? null : String.valueOf(c.getCnpDscp()));
    if (c.getDcqcn() != null) {
      for (Map.Entry<String, Long> e : c.getDcqcn().entrySet()) put(v, "dcqcn." + e.getKey(), String.valueOf(e.getValue()));
    }
    put(v, "rate_gbps", c.getRateGbps() == null ? null : String.format(Locale.ROOT, "%.1f", c.getRateGbps()));
    put(v, "link_width", c.getLinkWidth());
    put(v, "link_speed", c.getLinkSpeed());
    put(v, "cap_mask", c.getCapMask() == null ? null : c.getCapMask().toLowerCase(Locale.ROOT));
    put(v, "active_mtu", c.getActiveMtu() == null ? null : String.valueOf(c.getActiveMtu()));
    // in SL order: the table's position is the service level, so it is not sorted
    put(v, "sl2vl", c.getSl2vl() == null ? null : List.copyOf(c.getSl2vl()).toString());
    return new PortView(c.getCluster(), c.getNode(), c.getDevice(), c.getPort(), c.getNetdev(), c.getRail(), v);
  }

  private static String list(List<Integer> l) {
    return l == null ? null : l.stream().sorted().toList().toString();
  }

  private static void put(Map<String, String> m, String k, String v) {
    if (v != null) m.put(k, v);
  }
}
