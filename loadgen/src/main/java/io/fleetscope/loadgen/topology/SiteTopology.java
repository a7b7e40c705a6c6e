package io.fleetscope.loadgen.topology;

import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.loadgen.catalog.GpuCatalog;
import io.fleetscope.loadgen.catalog.GpuModel;
import io.fleetscope.loadgen.sim.Rng;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A generated site: nodes in racks, two PDUs per rack (A and B feed, one outlet per node on each),
 * one CDU per coolant loop serving {@code racksPerLoop} racks, HCA i on rail i, nodes grouped
 * into training jobs. Pure data; the inventory and job records are derived from it.
 */
public final class SiteTopology {

  /** One GPU node. */
  public record Node(int index, String name, String rack, String row, List<String> pduOutlets, String cdu,
      String loop, String job, GpuModel model, List<String> gpuUuids) {}

  /** One rack. */
  public record Rack(int index, String name, String row, List<String> nodes, List<String> pdus, String cdu,
      String loop) {}

  /** One PDU: which rack it feeds, and outlet number -> node. */
  public record Pdu(String name, String rack, String row, Map<String, String> outletToNode) {}

  /** One CDU with its loop and the racks it cools. */
  public record Cdu(String name, String loop, String row, List<String> racks) {}

  /** One training job and its nodes (all GPUs of each). */
  public record Job(String name, List<String> nodes) {}

  private final SiteConfig config;
  private final List<Node> nodes;
  private final List<Rack> racks;
  private final List<Pdu> pdus;
  private final List<Cdu> cdus;
  private final List<Job> jobs;
  private final Map<String, Node> nodeByName = new HashMap<>();
  private final Map<String, Rack> rackByName = new HashMap<>();

  private SiteTopology(SiteConfig config, List<Node> nodes, List<Rack> racks, List<Pdu> pdus, List<Cdu> cdus,
      List<Job> jobs) {
    this.config = config;
    this.nodes = List.copyOf(nodes);
    this.racks = List.copyOf(racks);
    this.pdus = List.copyOf(pdus);
    this.cdus = List.copyOf(cdus);
    this.jobs = List.copyOf(jobs);
    nodes.forEach(n -> nodeByName.put(n.name(), n));
    racks.forEach(r -> rackByName.put(r.name(), r));
  }

  /** Generates the site; {@code modelOverrides} maps node name to a catalog model key (mixed fleets). */
  public static SiteTopology generate(SiteConfig c, long seed, Map<String, String> modelOverrides) {
    GpuModel defaultModel = GpuCatalog.require(c.gpuModel());
    int rackCount = (c.nodes() + c.nodesPerRack() - 1) / c.nodesPerRack();
    int loopCount = (rackCount + c.racksPerLoop() - 1) / c.racksPerLoop();
    List<Node> nodes = new ArrayList<>();
    List<Rack> racks = new ArrayList<>();
    List<Pdu> pdus = new ArrayList<>();
    List<Cdu> cdus = new ArrayList<>();
    List<Job> jobs = new ArrayList<>();
    Map<String, List<String>> loopRacks = new LinkedHashMap<>();
    for (int l = 0; l < loopCount; l++) {
      loopRacks.put(loopName(l), new ArrayList<>());
    }
    for (int r = 0; r < rackCount; r++) {
      String rack = rackName(r);
      String row = rowName(r / c.racksPerRow());
      int loopIdx = r / c.racksPerLoop();
      String loop = loopName(loopIdx);
      String cdu = cduName(loopIdx);
      loopRacks.get(loop).add(rack);
      String pduA = rack.replace("rack-", "pdu-") + "-a";
      String pduB = rack.replace("rack-", "pdu-") + "-b";
      Map<String, String> outletsA = new LinkedHashMap<>();
      Map<String, String> outletsB = new LinkedHashMap<>();
      List<String> rackNodes = new ArrayList<>();
      for (int slot = 0; slot < c.nodesPerRack(); slot++) {
        int ni = r * c.nodesPerRack() + slot;
        if (ni >= c.nodes()) {
          break;
        }
        String name = nodeName(ni);
        String outlet = Integer.toString(slot + 1);
        outletsA.put(outlet, name);
        outletsB.put(outlet, name);
        GpuModel model = modelOverrides.containsKey(name) ? GpuCatalog.require(modelOverrides.get(name)) : defaultModel;
        Rng rng = Rng.of(seed, "uuid/" + name);
        List<String> uuids = new ArrayList<>();
        for (int g = 0; g < c.gpusPerNode(); g++) {
          uuids.add(rng.uuid("GPU-"));
        }
        String job = jobName(ni / c.nodesPerJob());
        nodes.add(new Node(ni, name, rack, row, List.of(pduA + "/" + outlet, pduB + "/" + outlet), cdu, loop, job,
            model, List.copyOf(uuids)));
        rackNodes.add(name);
      }
      racks.add(new Rack(r, rack, row, List.copyOf(rackNodes), List.of(pduA, pduB), cdu, loop));
      pdus.add(new Pdu(pduA, rack, row, Collections.unmodifiableMap(outletsA)));
      pdus.add(new Pdu(pduB, rack, row, Collections.unmodifiableMap(outletsB)));
    }
    for (int l = 0; l < loopCount; l++) {
      List<String> lr = loopRacks.get(loopName(l));
      String row = rackByNameIn(racks, lr.get(0)).row();
      cdus.add(new Cdu(cduName(l), loopName(l), row, List.copyOf(lr)));
    }
    Map<String, List<String>> jobNodes = new LinkedHashMap<>();
    for (Node n : nodes) {
      jobNodes.computeIfAbsent(n.job(), k -> new ArrayList<>()).add(n.name());
    }
    jobNodes.forEach((j, ns) -> jobs.add(new Job(j, List.copyOf(ns))));
    return new SiteTopology(c, nodes, racks, pdus, cdus, jobs);
  }

  private static Rack rackByNameIn(List<Rack> racks, String name) {
    return racks.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }

  public static String nodeName(int i) {
    return String.format("gpu-%04d", i + 1);
  }

  public static String rackName(int i) {
    return String.format("rack-%03d", i + 1);
  }

  public static String rowName(int i) {
    return String.format("row-%02d", i + 1);
  }

  public static String loopName(int i) {
    return String.format("loop-%02d", i + 1);
  }

  public static String cduName(int i) {
    return String.format("cdu-%02d", i + 1);
  }

  public static String jobName(int i) {
    return String.format("job-%03d", i + 1);
  }

  public static String hcaDevice(int i) {
    return i < HCA_DEVICES.length ? HCA_DEVICES[i] : "mlx5_" + i;
  }

  public SiteConfig config() {
    return config;
  }

  public List<Node> nodes() {
    return nodes;
  }

  public List<Rack> racks() {
    return racks;
  }

  public List<Pdu> pdus() {
    return pdus;
  }

  public List<Cdu> cdus() {
    return cdus;
  }

  public List<Job> jobs() {
    return jobs;
  }

  public Node node(String name) {
    Node n = nodeByName.get(name);
    if (n == null) {
      throw new IllegalArgumentException("no node '" + name + "' in a site of " + nodes.size() + " nodes");
    }
    return n;
  }

  public Rack rack(String name) {
    Rack r = rackByName.get(name);
    if (r == null) {
      throw new IllegalArgumentException("no rack '" + name + "' in a site of " + racks.size() + " racks");
    }
    return r;
  }

  public int totalGpus() {
    return nodes.size() * config.gpusPerNode();
  }

  /** fleet.inventory.v1 records: one per node, rack, PDU and CDU (keyed by {@code id}). */
  public List<InventoryRecord> inventory(long ts) {
    List<InventoryRecord> out = new ArrayList<>();
    String linkLayer = config.fabric().equals("roce") ? "Ethernet" : "InfiniBand";
    for (Node n : nodes) {
      out.add(nodeInventory(n, ts, -1));
    }
    addFacilityInventory(ts, out);
    return out;
  }

  /**
   * One node's fleet.inventory.v1 record; {@code missingRail} >= 0 leaves that rail's HCA out (a node
   * whose GPUs outnumber its HCAs, so two GPUs share one: the shared-HCA layout).
   */
  public InventoryRecord nodeInventory(Node n, long ts, int missingRail) {
    String linkLayer = config.fabric().equals("roce") ? "Ethernet" : "InfiniBand";
    {
      List<GpuInfo> gpus = new ArrayList<>();
      for (int g = 0; g < config.gpusPerNode(); g++) {
        GpuModel m = n.model();
        gpus.add(GpuInfo.newBuilder().setIndex(g).setUuid(n.gpuUuids().get(g)).setModel(m.name()).setTdpW(m.tdpW())
            .setSlowdownTempC(m.slowdownTempC()).setShutdownTempC(m.shutdownTempC()).setMemMaxTempC(m.memMaxTempC())
            .setHbmGb(m.hbmGb()).setPciBusId(pciBusId(g)).build());
      }
      List<HcaInfo> hcas = new ArrayList<>();
      for (int h = 0; h < config.gpusPerNode(); h++) {
        if (h == missingRail) {
          continue;
        }
        hcas.add(HcaInfo.newBuilder().setDevice(hcaDevice(h)).setPort(1).setRail(h).setLinkLayer(linkLayer)
            .setRateGbps(config.linkRateGbps()).setNodeGuid(String.format("0x%016x", 0x946dae0300000000L + n.index() * 16L + h))
            .build());
      }
      return base(ts, "node", n.name()).setRack(n.rack()).setRow(n.row()).setGpus(gpus).setHcas(hcas)
          .setPduOutlets(n.pduOutlets()).setCdu(n.cdu()).setCduLoop(n.loop()).setRackCooling(config.rackCooling())
          .setRackCoolingCapacityKw(config.rackCoolingCapacityKw()).build();
    }
  }

  private void addFacilityInventory(long ts, List<InventoryRecord> out) {
    for (Rack r : racks) {
      out.add(base(ts, "rack", r.name()).setRack(r.name()).setRow(r.row()).setCdu(r.cdu()).setCduLoop(r.loop())
          .setRackCooling(config.rackCooling()).setRackCoolingCapacityKw(config.rackCoolingCapacityKw())
          .setAttributes(Map.of("nodes", String.join(",", r.nodes()))).build());
    }
    for (Pdu p : pdus) {
      out.add(base(ts, "pdu", p.name()).setRack(p.rack()).setRow(p.row()).setRacks(List.of(p.rack())).build());
    }
    for (Cdu c : cdus) {
      out.add(base(ts, "cdu", c.name()).setRow(c.row()).setCdu(c.name()).setCduLoop(c.loop()).setRacks(c.racks())
          .build());
    }
  }

  private InventoryRecord.Builder base(long ts, String kind, String id) {
    return InventoryRecord.newBuilder().setTs(ts).setCluster(config.cluster()).setKind(kind).setId(id)
        .setGpus(List.of()).setHcas(List.of()).setPduOutlets(List.of()).setRacks(List.of()).setAttributes(Map.of());
  }

  /** fleet.jobs.v1 records: one per node, every GPU owned by the node's job. */
  public List<JobAllocations> jobAllocations(long ts) {
    List<JobAllocations> out = new ArrayList<>();
    for (Node n : nodes) {
      out.add(jobAllocation(n, ts, 0L, true));
    }
    return out;
  }

  /**
   * One node's fleet.jobs.v1 record: every GPU allocated to the node's job, or (not
   * {@code allocated}) no allocation at all, the node being idle.
   */
  public JobAllocations jobAllocation(Node n, long ts, long agentSeq, boolean allocated) {
    List<Integer> all = new ArrayList<>();
    for (int g = 0; g < config.gpusPerNode(); g++) {
      all.add(g);
    }
    List<GpuAllocation> allocations = allocated ? List.of(GpuAllocation.newBuilder().setJob(n.job()).setGpus(all)
        .setUser("train").setPartition("gpu").build()) : List.of();
    return JobAllocations.newBuilder().setTs(ts).setCluster(config.cluster()).setNode(n.name()).setAgentSeq(agentSeq)
        .setSource("loadgen").setAllocations(allocations).build();
  }

  private static final String[] PCI_BUS_IDS = new String[16];
  private static final String[] HCA_DEVICES = new String[16];

  static {
    int[] buses = {0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb, 0x19, 0x2b, 0x3b, 0x5e, 0x9b, 0xac, 0xbb, 0xdc};
    for (int i = 0; i < 16; i++) {
      PCI_BUS_IDS[i] = String.format("00000000:%02X:00.0", buses[i]);
      HCA_DEVICES[i] = "mlx5_" + i;
    }
  }

  static String pciBusId(int g) {
    return PCI_BUS_IDS[g % PCI_BUS_IDS.length];
  }

  public static String pciBusIdOf(int g) {
    return pciBusId(g);
  }
}
