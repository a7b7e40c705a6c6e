package io.fleetscope.streams;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.BlastRadius;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.contract.AlertAnnotations;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.schemas.contract.AlertStatus;
import io.fleetscope.schemas.contract.Fingerprint;
import io.fleetscope.schemas.contract.Runbooks;
import io.fleetscope.streams.jobs.JobImpacts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Pure grouping of one cluster's effective firing anomalies into incidents:
 * <ul>
 *   <li>a cooling or power anomaly (cause) absorbs the GPU alerts of the nodes behind it (same CDU loop,
 *       or same rack for rack-scoped causes) into ONE incident naming the root cause and the blast radius;
 *   <li>port alerts on one rail become one rail incident;
 *   <li>everything else is an incident of its own.
 * </ul>
 * An incident's labels depend only on its cause (or rail), never on its members, so its fingerprint
 * stays the same while the blast radius grows and shrinks.
 */
public final class IncidentGrouper {

  /** One incident as the grouping wants it now. */
  public record Incident(String fingerprint, Map<String, String> labels, Map<String, String> annotations,
                         long startsAt, List<String> members, BlastRadius blastRadius, String rootCause) {}

  public static final String SCOPE = "scope";

  private final Set<String> causes;
  private final Set<String> rackScoped;
  private final Set<String> gpuMembers;
  private final List<String> portAlerts;
  private final String railAlertname;
  private final String railSeverity;
  private final String runbookBase;

  public IncidentGrouper(CorrelatorConfig c) {
    this.causes = c.causeAlertnames();
    this.rackScoped = c.rackScopedCauses();
    this.gpuMembers = c.gpuMemberAlertnames();
    this.portAlerts = c.portAlertnames();
    this.railAlertname = c.railAlertname();
    this.railSeverity = c.railSeverity();
    this.runbookBase = c.runbookBase();
  }

  private record Cause(Anomaly anomaly, String rack, String cdu, String loop, Set<String> cduRacks, boolean rackScope) {
    boolean covers(InventoryLookup.NodeTopology t) {
      if (rackScope) {
        return rack != null && rack.equals(t.rack());
      }
      if (loop != null && t.cduLoop() != null) {
        return loop.equals(t.cduLoop());
      }
      if (cdu != null && cdu.equals(t.cdu())) {
        return true;
      }
      if (t.rack() != null && cduRacks.contains(t.rack())) {
        return true;
      }
      return loop == null && cdu == null && rack != null && rack.equals(t.rack());
    }
  }

  /** Annotation naming the anomaly that is the root cause of a grouped incident. */
  public static final String ROOT_CAUSE_FP = "root_cause_fingerprint";

  /** Same as {@link #group(Collection, InventoryLookup, Collection)} with no previous incidents. */
  public Map<String, Incident> group(Collection<Anomaly> firing, InventoryLookup inv) {
    return group(firing, inv, List.of());
  }

  /**
   * The incidents for {@code firing} (all effective firing anomalies of one cluster), by fingerprint.
   * {@code previous} are the incidents firing before this change: a grouped incident whose root cause
   * has cleared keeps its members that still fire (the GPUs are still hot) until they resolve, instead
   * of splitting into one page per GPU.
   */
  public Map<String, Incident> group(Collection<Anomaly> firing, InventoryLookup inv, Collection<Alert> previous) {
    List<Anomaly> sorted = new ArrayList<>(firing);
    sorted.sort(Comparator.comparing(Anomaly::getFingerprint));
    List<Cause> causeList = new ArrayList<>();
    for (Anomaly a : sorted) {
      if (causes.contains(name(a))) {
        causeList.add(causeOf(a, inv));
      }
    }
    Map<Cause, List<Anomaly>> absorbed = new LinkedHashMap<>();
    causeList.forEach(c -> absorbed.put(c, new ArrayList<>()));
    Set<String> causeFps = causeList.stream().map(c -> c.anomaly().getFingerprint()).collect(Collectors.toSet());
    // grouped incidents whose cause cleared: member fingerprint -> that incident
    Map<String, Alert> lingeringByMember = new TreeMap<>();
    for (Alert p : previous) {
      String causeFp = p.getAnnotations().get(ROOT_CAUSE_FP);
      if (causeFp != null && !causeFps.contains(causeFp) && AlertStatus.isFiring(p.getStatus())) {
        p.getMembers().forEach(m -> lingeringByMember.putIfAbsent(m, p));
      }
    }
    Map<String, List<Anomaly>> lingering = new TreeMap<>();
    Map<String, List<Anomaly>> byRail = new TreeMap<>();
    Map<String, Incident> out = new LinkedHashMap<>();
    for (Anomaly a : sorted) {
      String n = name(a);
      if (causes.contains(n)) {
        continue;
      }
      if (gpuMembers.contains(n) && a.getLabels().get(AlertLabels.NODE) != null) {
        InventoryLookup.NodeTopology t = inv.topologyOf(a.getLabels().get(AlertLabels.NODE), a.getLabels());
        Cause hit = causeList.stream().filter(c -> c.covers(t)).findFirst().orElse(null);
        if (hit != null) {
          absorbed.get(hit).add(a);
          continue;
        }
        Alert was = lingeringByMember.get(a.getFingerprint());
        if (was != null) {
          lingering.computeIfAbsent(was.getFingerprint(), f -> new ArrayList<>()).add(a);
          continue;
        }
      }
      if (portAlerts.contains(n)) {
        String rail = a.getLabels().get(AlertLabels.RAIL);
        if (rail == null) {
          rail = inv.railOf(a.getLabels().get(AlertLabels.NODE), a.getLabels().get(AlertLabels.DEVICE), a.getLabels().get(AlertLabels.PORT));
        }
        if (rail != null) {
          byRail.computeIfAbsent(rail, r -> new ArrayList<>()).add(a);
          continue;
        }
      }
      Incident single = single(a, inv);
      out.put(single.fingerprint(), single);
    }
    absorbed.forEach((c, members) -> {
      Incident i = causeIncident(c, members);
      out.put(i.fingerprint(), i);
    });
    for (Alert p : previous) {
      List<Anomaly> members = lingering.get(p.getFingerprint());
      if (members != null && !out.containsKey(p.getFingerprint())) {
        out.put(p.getFingerprint(), clearedCauseIncident(p, members));
      }
    }
    byRail.forEach((rail, members) -> {
      Incident i = railIncident(rail, members);
      out.put(i.fingerprint(), i);
    });
    return out;
  }

  private Cause causeOf(Anomaly a, InventoryLookup inv) {
    Map<String, String> l = a.getLabels();
    String cdu = first(l, AlertLabels.CDU, AlertLabels.DEVICE);
    String loop = first(l, AlertLabels.LOOP, AlertLabels.CDU_LOOP);
    Set<String> racks = new TreeSet<>();
    if (cdu != null) {
      InventoryRecord r = inv.get(cdu);
      if (r != null) {
        racks.addAll(r.getRacks());
        if (loop == null && r.getCduLoop() != null) {
          loop = r.getCduLoop();
        }
      }
    }
    return new Cause(a, l.get(AlertLabels.RACK), cdu, loop, racks, rackScoped.contains(name(a)));
  }

  private Incident causeIncident(Cause c, List<Anomaly> members) {
    Anomaly a = c.anomaly();
    Map<String, String> labels = new TreeMap<>(a.getLabels());
    labels.put(SCOPE, c.rackScope() ? "rack" : "cdu_loop");
    if (!labels.containsKey(AlertLabels.RACK) && c.cduRacks().size() == 1) {
      labels.put(AlertLabels.RACK, c.cduRacks().iterator().next());
    }
    if (!c.rackScope() && c.loop() != null && !labels.containsKey(AlertLabels.LOOP) && !labels.containsKey(AlertLabels.CDU_LOOP)) {
      labels.put(AlertLabels.LOOP, c.loop());
    }
    BlastRadius br = blastRadius(members);
    String where = c.rackScope() ? "rack " + c.rack()
        : "CDU " + (c.cdu() == null ? "?" : c.cdu()) + (c.loop() == null ? "" : " loop " + c.loop());
    String rootCause = name(a) + " on " + where + " (anomaly " + a.getFingerprint() + ")";
    Map<String, String> ann = new TreeMap<>();
    ann.put(AlertAnnotations.SUMMARY, name(a) + " on " + where + ": " + affected(br, c));
    String causeSummary = a.getAnnotations() == null ? null : a.getAnnotations().get(AlertAnnotations.SUMMARY);
    ann.put(AlertAnnotations.DESCRIPTION, (causeSummary == null ? "" : causeSummary + ". ") + "Member alerts: " + countNames(members)
        + (br.getNodes() > 0 ? "; nodes: " + String.join(",", br.getNodeList()) : ""));
    ann.put("root_cause", rootCause);
    ann.put(ROOT_CAUSE_FP, a.getFingerprint());
    ann.put("blast_radius", br.getGpus() + " GPUs, " + br.getNodes() + " nodes");
    ann.put(AlertAnnotations.RUNBOOK_URL, runbook(name(a)));
    List<String> fps = new ArrayList<>();
    fps.add(a.getFingerprint());
    long starts = a.getStartsAt();
    for (Anomaly m : members) {
      fps.add(m.getFingerprint());
      starts = Math.min(starts, m.getStartsAt());
    }
    fps.sort(null);
    return new Incident(Fingerprint.of(labels), labels, ann, starts, fps, br, rootCause);
  }

  /**
   * The blast radius for a cause's summary. A cause often fires before any GPU behind it heats up (the
   * page goes out at once); then the summary says so and names what the cause serves instead of
   * "0 GPUs on 0 nodes".
   */
  private static String affected(BlastRadius br, Cause c) {
    if (br.getGpus() > 0 || br.getNodes() > 0) {
      return br.getGpus() + " GPUs on " + br.getNodes() + " nodes affected";
    }
    String serves = c.rackScope() ? (c.rack() == null ? "" : "; rack " + c.rack())
        : c.cduRacks().isEmpty() ? "" : "; serves racks " + String.join(",", c.cduRacks());
    return "no GPU alerting yet" + serves;
  }

  /** A grouped incident whose root cause resolved while some of its members still fire. */
  private Incident clearedCauseIncident(Alert p, List<Anomaly> members) {
    BlastRadius br = blastRadius(members);
    Map<String, String> ann = new TreeMap<>(p.getAnnotations());
    ann.put(AlertAnnotations.SUMMARY, p.getRootCause() + " cleared; " + br.getGpus() + " GPUs on " + br.getNodes() + " nodes still alerting");
    ann.put("blast_radius", br.getGpus() + " GPUs, " + br.getNodes() + " nodes");
    ann.put(AlertAnnotations.DESCRIPTION, "Root cause cleared. Member alerts still firing: " + countNames(members)
        + "; nodes: " + String.join(",", br.getNodeList()));
    List<String> fps = members.stream().map(Anomaly::getFingerprint).sorted().toList();
    return new Incident(p.getFingerprint(), new TreeMap<>(p.getLabels()), ann, p.getStartsAt(), fps, br, p.getRootCause());
  }

  private Incident railIncident(String rail, List<Anomaly> members) {
    Anomaly any = members.get(0);
    Map<String, String> labels = new TreeMap<>();
    labels.put(AlertLabels.ALERTNAME, railAlertname);
    labels.put(AlertLabels.SEVERITY, railSeverity);
    labels.put(AlertLabels.CLUSTER, any.getLabels().get(AlertLabels.CLUSTER));
    labels.put(AlertLabels.RAIL, rail);
    labels.put(SCOPE, "rail");
    BlastRadius br = blastRadius(members);
    String worst = worstPortAlert(members);
    List<String> ports = members.stream()
        .map(m -> m.getLabels().getOrDefault(AlertLabels.NODE, "?") + "/" + m.getLabels().getOrDefault(AlertLabels.DEVICE, "?")
            + (m.getLabels().containsKey(AlertLabels.PORT) ? ":" + m.getLabels().get(AlertLabels.PORT) : ""))
        .sorted().distinct().toList();
    String rootCause = worst + " on rail " + rail;
    Map<String, String> ann = new TreeMap<>();
    ann.put(AlertAnnotations.SUMMARY, "rail " + rail + ": " + ports.size() + " ports alerting on " + br.getNodes() + " nodes (" + countNames(members) + ")");
    ann.put(AlertAnnotations.DESCRIPTION, "ports: " + String.join(", ", ports));
    ann.put("root_cause", rootCause);
    ann.put("blast_radius", br.getNodes() + " nodes, " + ports.size() + " ports");
    ann.put(AlertAnnotations.RUNBOOK_URL, runbook(worst));
    List<String> fps = members.stream().map(Anomaly::getFingerprint).sorted().toList();
    long starts = members.stream().mapToLong(Anomaly::getStartsAt).min().orElse(0);
    return new Incident(Fingerprint.of(labels), labels, ann, starts, fps, br, rootCause);
  }

  /**
   * An alert that is its own incident. A node-level alert without a rack label gets the node's rack from
   * the inventory, so Alertmanager can group by rack and inhibit it while a rack-level incident fires.
   */
  /**
   * Whether an anomaly with this alertname can only ever be an incident of its own, whatever else fires:
   * neither a cause, nor a port alert, nor a GPU alert that a cause could absorb.
   */
  public boolean alwaysAlone(String alertname) {
    return !causes.contains(alertname) && !portAlerts.contains(alertname) && !gpuMembers.contains(alertname);
  }

  /** Whether a GPU alert with this alertname joins grouped incidents. */
  public boolean gpuMember(String alertname) {
    return gpuMembers.contains(alertname);
  }

  Incident single(Anomaly a, InventoryLookup inv) {
    Map<String, String> ann = new TreeMap<>(a.getAnnotations() == null ? Map.of() : a.getAnnotations());
    ann.putIfAbsent(AlertAnnotations.RUNBOOK_URL, runbook(name(a)));
    Map<String, String> labels = new TreeMap<>(a.getLabels());
    String node = labels.get(AlertLabels.NODE);
    if (node != null && !labels.containsKey(AlertLabels.RACK)) {
      InventoryRecord n = inv.get(node);
      if (n != null && n.getRack() != null) {
        labels.put(AlertLabels.RACK, n.getRack());
      }
    }
    return new Incident(a.getFingerprint(), labels, ann, a.getStartsAt(),
        List.of(a.getFingerprint()), blastRadius(List.of(a)), null);
  }

  private String worstPortAlert(List<Anomaly> members) {
    for (String n : portAlerts) { // declared in order of precedence
      for (Anomaly m : members) {
        if (n.equals(name(m))) {
          return n;
        }
      }
    }
    return name(members.get(0));
  }

  static BlastRadius blastRadius(List<Anomaly> members) {
    TreeSet<String> nodes = new TreeSet<>();
    TreeSet<String> gpus = new TreeSet<>();
    for (Anomaly m : members) {
      String node = m.getLabels().get(AlertLabels.NODE);
      if (node != null) {
        nodes.add(node);
        String gpu = m.getLabels().get(AlertLabels.GPU);
        if (gpu != null) {
          String gi = m.getLabels().get(AlertLabels.GPU_INSTANCE);
          gpus.add(node + "/" + (gi == null ? gpu : JobImpacts.migDevice(gpu, gi)));
        }
      }
    }
    List<String> gpuList = new ArrayList<>(gpus);
    gpuList.sort(Comparator.comparing((String s) -> s.substring(0, s.lastIndexOf('/')))
        .thenComparing(s -> parseOr(s.substring(s.lastIndexOf('/') + 1)))
        .thenComparing(s -> s.substring(s.lastIndexOf('/') + 1)));
    return BlastRadius.newBuilder().setGpus(gpus.size()).setNodes(nodes.size())
        .setNodeList(new ArrayList<>(nodes)).setGpuList(gpuList).build();
  }

  /** The GPU index of a blast-radius GPU ({@code 3} of {@code 3} and of the MIG device {@code 3:gi2}). */
  private static long parseOr(String s) {
    int colon = s.indexOf(':');
    try {
      return Long.parseLong(colon < 0 ? s : s.substring(0, colon));
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  private static String countNames(List<Anomaly> members) {
    if (members.isEmpty()) {
      return "none";
    }
    return members.stream().collect(Collectors.groupingBy(IncidentGrouper::name, TreeMap::new, Collectors.counting()))
        .entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
  }

  private String runbook(String alertname) {
    return Runbooks.url(runbookBase, alertname);
  }

  private static String first(Map<String, String> l, String a, String b) {
    return l.get(a) != null ? l.get(a) : l.get(b);
  }

  private static String name(Anomaly a) {
    return a.getLabels().get(AlertLabels.ALERTNAME);
  }
}
