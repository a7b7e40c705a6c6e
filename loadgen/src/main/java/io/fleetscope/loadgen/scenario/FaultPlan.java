package io.fleetscope.loadgen.scenario;

import io.fleetscope.loadgen.topology.SiteTopology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A scenario's faults resolved against a site, and the ground-truth labels they imply. */
public final class FaultPlan {
  private final Scenario scenario;
  private final SiteTopology site;
  private final List<ResolvedFault> faults;

  public FaultPlan(Scenario scenario, SiteTopology site, long runStartTs, long runEndTs) {
    this.scenario = scenario;
    this.site = site;
    List<ResolvedFault> out = new ArrayList<>();
    for (FaultSpec f : scenario.faults()) {
      out.add(resolve(f, runStartTs, runEndTs));
    }
    this.faults = List.copyOf(out);
  }

  public List<ResolvedFault> faults() {
    return faults;
  }

  /**
   * Node name -> catalog model key for mixed-model faults; applied when the site is generated.
   * Resolved on a site generated without overrides (names do not depend on models).
   */
  public static Map<String, String> modelOverrides(Scenario scenario, SiteTopology plainSite) {
    Map<String, String> out = new LinkedHashMap<>();
    for (FaultSpec f : scenario.faults()) {
      if (f.type() == FaultType.MIXED_GPU_MODELS) {
        SiteTopology.Job job = plainSite.jobs().get(index(f, "job", plainSite.jobs().size(), plainSite.jobs().stream()
            .map(SiteTopology.Job::name).toList()));
        int n = (int) f.param("nodes", 1);
        String model = f.param("model", "h100");
        List<String> ns = job.nodes();
        if (n >= ns.size()) {
          throw new IllegalArgumentException("fault " + f.id() + ": job " + job.name() + " has " + ns.size()
              + " nodes; cannot make " + n + " of them a different model");
        }
        for (int i = ns.size() - n; i < ns.size(); i++) {
          out.put(ns.get(i), model);
        }
      }
    }
    return out;
  }

  private ResolvedFault resolve(FaultSpec f, long runStart, long runEnd) {
    long start = runStart + f.start().toMillis();
    long end = f.end() == null ? runEnd : runStart + f.end().toMillis();
    Integer node = null;
    String nodeName = null;
    Integer gpu = null;
    Integer rail = null;
    Integer rack = null;
    String rackName = null;
    Integer loop = null;
    Integer job = null;
    List<String> racks = List.of();
    List<String> nodeNames = site.nodes().stream().map(SiteTopology.Node::name).toList();
    if (f.target().containsKey("node")) {
      node = index(f, "node", site.nodes().size(), nodeNames);
      nodeName = nodeNames.get(node);
    }
    if (f.target().containsKey("gpu")) {
      gpu = intTarget(f, "gpu");
      if (gpu < 0 || gpu >= site.config().gpusPerNode()) {
        throw new IllegalArgumentException("fault " + f.id() + ": gpu " + gpu + " out of range 0.."
            + (site.config().gpusPerNode() - 1));
      }
    }
    if (f.target().containsKey("rail")) {
      rail = intTarget(f, "rail");
      if (rail < 0 || rail >= site.config().gpusPerNode()) {
        throw new IllegalArgumentException("fault " + f.id() + ": rail " + rail + " out of range 0.."
            + (site.config().gpusPerNode() - 1));
      }
    }
    if (f.target().containsKey("rack")) {
      rack = index(f, "rack", site.racks().size(), site.racks().stream().map(SiteTopology.Rack::name).toList());
    } else if (node != null) {
      rack = site.rack(site.nodes().get(node).rack()).index();
    }
    if (rack != null) {
      rackName = site.racks().get(rack).name();
    }
    if (f.target().containsKey("loop")) {
      List<String> loops = site.cdus().stream().map(SiteTopology.Cdu::loop).toList();
      List<String> cdus = site.cdus().stream().map(SiteTopology.Cdu::name).toList();
      Object v = f.target().get("loop");
      loop = (v instanceof String s && cdus.contains(s)) ? cdus.indexOf(s) : index(f, "loop", loops.size(), loops);
    } else if (rack != null) {
      String ln = site.racks().get(rack).loop();
      loop = site.cdus().stream().map(SiteTopology.Cdu::loop).toList().indexOf(ln);
    }
    String loopName = loop == null ? null : site.cdus().get(loop).loop();
    String cduName = loop == null ? null : site.cdus().get(loop).name();
    if (loop != null) {
      racks = site.cdus().get(loop).racks();
    }
    if (f.target().containsKey("job")) {
      job = index(f, "job", site.jobs().size(), site.jobs().stream().map(SiteTopology.Job::name).toList());
    } else if (node != null) {
      String jn = site.nodes().get(node).job();
      job = site.jobs().stream().map(SiteTopology.Job::name).toList().indexOf(jn);
    }
    String jobName = job == null ? null : site.jobs().get(job).name();
    switch (f.type().scope()) {
      case GPU -> need(f, node != null && gpu != null, "node and gpu");
      case PORT -> need(f, node != null && rail != null, "node and rail");
      case NODE -> need(f, node != null, "node");
      case RACK -> need(f, rack != null, "rack (or node)");
      case LOOP -> need(f, loop != null, "loop (or rack or node)");
      case RAIL -> need(f, rail != null, "rail");
      case JOB -> need(f, job != null, "job (or node)");
      default -> { }
    }
    if (f.type() == FaultType.FABRIC_PFC_OFF && !site.config().fabric().equals("roce")) {
      throw new IllegalArgumentException("fault " + f.id() + " (fabric_pfc_off) needs a RoCE site (site: {fabric: roce}), got "
          + site.config().fabric());
    }
    if ((f.type() == FaultType.IB_PORT_NARROW || f.type() == FaultType.IB_MTU_MISMATCH || f.type() == FaultType.IB_SL2VL_MISMATCH)
        && (!site.config().fabric().equals("infiniband") || !Boolean.TRUE.equals(scenario.site().get("ib_port_config")))) {
      throw new IllegalArgumentException("fault " + f.id() + " (" + f.type().name().toLowerCase(java.util.Locale.ROOT)
          + ") needs an InfiniBand site that publishes its ports' configuration (site: {ib_port_config: true})");
    }
    if (f.type() == FaultType.IB_MTU_MISMATCH && !List.of(256, 512, 1024, 2048, 4096).contains((int) f.param("mtu", 2048))) {
      throw new IllegalArgumentException("fault " + f.id() + ": mtu must be an InfiniBand MTU (256, 512, 1024, 2048, 4096)");
    }
    if (f.type() == FaultType.IB_SL2VL_MISMATCH && (f.param("vl", 0) < 0 || f.param("vl", 0) > 15)) {
      throw new IllegalArgumentException("fault " + f.id() + ": vl must be a virtual lane 0..15");
    }
    if (f.type() == FaultType.RAIL_SHARED_HCA) {
      int from = (int) f.param("rail_from", 1);
      int to = (int) f.param("rail_to", 0);
      int g = site.config().gpusPerNode();
      if (from < 0 || from >= g || to < 0 || to >= g || from == to) {
        throw new IllegalArgumentException("fault " + f.id() + ": rail_from/rail_to must be distinct rails 0.." + (g - 1));
      }
    }
    return new ResolvedFault(f, start, end, node, nodeName, gpu, rail, rack, rackName, loop, loopName, cduName, job,
        jobName, racks);
  }

  private static void need(FaultSpec f, boolean ok, String what) {
    if (!ok) {
      throw new IllegalArgumentException("fault " + f.id() + " (" + f.type().yamlName() + ") needs a target with " + what
          + ", got " + f.target());
    }
  }

  private static int intTarget(FaultSpec f, String key) {
    Object v = f.target().get(key);
    if (v instanceof Number n) {
      return n.intValue();
    }
    try {
      return Integer.parseInt(v.toString());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("fault " + f.id() + ": target " + key + " must be an integer, got '" + v + "'");
    }
  }

  /** A target given as a 0-based index or as a name. */
  private static int index(FaultSpec f, String key, int size, List<String> names) {
    Object v = f.target().get(key);
    int i;
    if (v instanceof Number n) {
      i = n.intValue();
    } else {
      i = names.indexOf(v.toString());
      if (i < 0) {
        try {
          i = Integer.parseInt(v.toString());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("fault " + f.id() + ": no " + key + " named '" + v + "'");
        }
      }
    }
    if (i < 0 || i >= size) {
      throw new IllegalArgumentException("fault " + f.id() + ": " + key + " index " + i + " out of range; the site has "
          + size + " (use more --nodes)");
    }
    return i;
  }

  /** The ground truth: one label per expected alert of each fault. */
  public List<GroundTruthLabel> labels() {
    List<GroundTruthLabel> out = new ArrayList<>();
    String cluster = site.config().cluster();
    for (ResolvedFault rf : faults) {
      FaultSpec f = rf.spec();
      List<String> alerts = f.alerts() != null ? f.alerts() : f.type().expectedAlerts();
      long tail = f.type().labelTailS() * 1000;
      for (String alert : alerts) {
        long s = rf.startTs();
        long e = rf.endTs() + tail;
        if (f.type() == FaultType.ECC_DEGRADATION) {
          long dbe = dbeAt(rf);
          if (alert.equals("GpuEccCorrectableRising")) {
            e = dbe;
          } else if (alert.equals("GpuEccUncorrectable")) {
            s = dbe;
          }
        }
        if (f.type() == FaultType.CDU_FLOW_LOSS && !alert.equals("CoolantFlowLow")) {
          for (String rack : rf.racks()) {
            Map<String, String> t = new LinkedHashMap<>();
            t.put("cluster", cluster);
            t.put("rack", rack);
            t.put("loop", rf.loopName());
            out.add(label(rf, alert, t, f.match() != null ? f.match() : List.of("cluster", "rack"), s, e));
          }
          continue;
        }
        Map<String, String> t = new LinkedHashMap<>();
        t.put("cluster", cluster);
        List<String> match = new ArrayList<>(List.of("cluster"));
        switch (f.type()) {
          case CDU_FLOW_LOSS -> {
            t.put("device", rf.cduName());
            t.put("loop", rf.loopName());
            match.add("device");
          }
          case RACK_POWER_OVER_COOLING -> {
            t.put("rack", rf.rackName());
            match.add("rack");
          }
          case IB_LINK_DOWN, IB_LINK_DEGRADED -> {
            t.put("node", rf.nodeName());
            t.put("rack", rf.rackName());
            t.put("device", SiteTopology.hcaDevice(rf.rail()));
            t.put("port", "1");
            t.put("rail", Integer.toString(rf.rail()));
            match.addAll(List.of("node", "rail"));
          }
          case FABRIC_PFC_OFF -> {
            t.put("node", rf.nodeName());
            t.put("rack", rf.rackName());
            t.put("device", SiteTopology.hcaDevice(rf.rail()));
            t.put("port", "1");
            t.put("rail", Integer.toString(rf.rail()));
            t.put("field", "pfc_prios");
            match.addAll(List.of("node", "rail", "field"));
          }
          case IB_PORT_NARROW -> {
            t.put("node", rf.nodeName());
            t.put("rack", rf.rackName());
            t.put("device", SiteTopology.hcaDevice(rf.rail()));
            t.put("port", "1");
            t.put("rail", Integer.toString(rf.rail()));
            match.addAll(List.of("node", "rail"));
          }
          case IB_MTU_MISMATCH, IB_SL2VL_MISMATCH -> {
            t.put("node", rf.nodeName());
            t.put("rack", rf.rackName());
            t.put("device", SiteTopology.hcaDevice(rf.rail()));
            t.put("port", "1");
            t.put("rail", Integer.toString(rf.rail()));
            t.put("field", f.type() == FaultType.IB_MTU_MISMATCH ? "active_mtu" : "sl2vl");
            match.addAll(List.of("node", "rail", "field"));
          }
          case RAIL_SHARED_HCA -> {
            t.put("node", rf.nodeName());
            t.put("rack", rf.rackName());
            t.put("rail", Integer.toString((int) f.param("rail_from", 1)));
            match.add("node");
          }
          case ROCE_CONGESTION -> {
            t.put("rail", Integer.toString(rf.rail()));
            if (rf.nodeName() != null) {
              t.put("node", rf.nodeName());
            }
            match.add("rail");
          }
          case SLOW_CHECKPOINT_TIER, MIXED_GPU_MODELS, SLOW_CHECKPOINT_JOB -> {
            t.put("job", rf.jobName());
            match.add("job");
          }
          case PFS_DEGRADED -> {
            t.put("job", rf.jobName());
            t.put("tier", "lustre"); // the simulated jobs' checkpoint tier (JobState.tier)
            match.add(alert.equals("StorageTierDegraded") ? "tier" : "job");
          }
          case NVME_MEDIA_ERRORS, NVME_WORN_STABLE -> {
            t.put("node", rf.nodeName());
            t.put("rack", rf.rackName());
            t.put("tier", "local-nvme");
            t.put("device", "nvme0");
            match.addAll(List.of("node", "tier"));
          }
          case NODE_SILENT, COUNTER_RESET -> {
            t.put("node", rf.nodeName());
            t.put("rack", rf.rackName());
            match.add("node");
          }
          default -> {
            t.put("node", rf.nodeName());
            t.put("gpu", Integer.toString(rf.gpu()));
            t.put("rack", rf.rackName());
            match.addAll(List.of("node", "gpu"));
          }
        }
        out.add(label(rf, alert, t, f.match() != null ? f.match() : match, s, e));
      }
    }
    return out;
  }

  private GroundTruthLabel label(ResolvedFault rf, String alert, Map<String, String> target, List<String> match, long s,
      long e) {
    return new GroundTruthLabel(scenario.name(), rf.spec().id(), rf.type().yamlName(), alert, Map.copyOf(target),
        List.copyOf(match), s, e, rf.type().tolerated());
  }

  /** When the ECC-degradation fault's uncorrectable error happens (param dbe_at, default 70% into the window). */
  public static long dbeAt(ResolvedFault rf) {
    long dflt = (long) ((rf.endTs() - rf.startTs()) * 0.7);
    return rf.startTs() + rf.spec().durationParam("dbe_at", Duration.ofMillis(dflt)).toMillis();
  }
}
