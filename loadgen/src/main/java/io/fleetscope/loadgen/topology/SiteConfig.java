package io.fleetscope.loadgen.topology;

/**
 * Shape of the generated site. All defaults are documented here and nowhere else.
 *
 * @param cluster cluster name on every record (default {@code sim})
 * @param nodes number of GPU nodes (no default; at least 1)
 * @param gpusPerNode GPUs and HCAs per node (default 8; HCA i serves rail i)
 * @param nodesPerRack nodes per rack (default 4)
 * @param racksPerLoop racks per CDU coolant loop (default 4)
 * @param racksPerRow racks per row; one facility agent per row (default 8)
 * @param nodesPerJob nodes per training job (default 8; the last job takes what is left)
 * @param gpuModel catalog key of the GPU in every node unless a scenario says otherwise (default h200)
 * @param fabric {@code infiniband} (default) or {@code roce}
 * @param linkRateGbps nominal link rate per port (default 400, NDR)
 * @param rackCooling cooling type of every rack (default direct-liquid)
 * @param rackCoolingCapacityKw cooling capacity of every rack (default 40 kW)
 */
public record SiteConfig(
    String cluster,
    int nodes,
    int gpusPerNode,
    int nodesPerRack,
    int racksPerLoop,
    int racksPerRow,
    int nodesPerJob,
    String gpuModel,
    String fabric,
    double linkRateGbps,
    String rackCooling,
    double rackCoolingCapacityKw) {

  public SiteConfig {
    require(nodes >= 1, "nodes must be >= 1, got " + nodes);
    require(gpusPerNode >= 1 && gpusPerNode <= 16, "gpus-per-node must be 1..16, got " + gpusPerNode);
    require(nodesPerRack >= 1, "nodes-per-rack must be >= 1");
    require(racksPerLoop >= 1, "racks-per-loop must be >= 1");
    require(racksPerRow >= 1, "racks-per-row must be >= 1");
    require(nodesPerJob >= 1, "nodes-per-job must be >= 1");
    require(fabric.equals("infiniband") || fabric.equals("roce"), "fabric must be infiniband or roce, got " + fabric);
    require(linkRateGbps > 0, "link rate must be > 0");
    require(rackCoolingCapacityKw > 0, "rack cooling capacity must be > 0");
  }

  public static SiteConfig defaults(int nodes) {
    return new SiteConfig("sim", nodes, 8, 4, 4, 8, 8, "h200", "infiniband", 400, "direct-liquid", 40);
  }

  public SiteConfig withNodes(int n) {
    return new SiteConfig(cluster, n, gpusPerNode, nodesPerRack, racksPerLoop, racksPerRow, nodesPerJob, gpuModel,
        fabric, linkRateGbps, rackCooling, rackCoolingCapacityKw);
  }

  public SiteConfig withGpusPerNode(int g) {
    return new SiteConfig(cluster, nodes, g, nodesPerRack, racksPerLoop, racksPerRow, nodesPerJob, gpuModel,
        fabric, linkRateGbps, rackCooling, rackCoolingCapacityKw);
  }

  public SiteConfig withFabric(String f) {
    return new SiteConfig(cluster, nodes, gpusPerNode, nodesPerRack, racksPerLoop, racksPerRow, nodesPerJob, gpuModel,
        f, linkRateGbps, rackCooling, rackCoolingCapacityKw);
  }

  public SiteConfig withCluster(String c) {
    return new SiteConfig(c, nodes, gpusPerNode, nodesPerRack, racksPerLoop, racksPerRow, nodesPerJob, gpuModel,
        fabric, linkRateGbps, rackCooling, rackCoolingCapacityKw);
  }

  public SiteConfig withNodesPerJob(int n) {
    return new SiteConfig(cluster, nodes, gpusPerNode, nodesPerRack, racksPerLoop, racksPerRow, n, gpuModel,
        fabric, linkRateGbps, rackCooling, rackCoolingCapacityKw);
  }

  /**
   * Applies a scenario's {@code site:} overrides. Keys: fabric, nodes_per_job, nodes_per_rack,
   * racks_per_loop, gpu_model, rack_cooling, rack_cooling_capacity_kw, link_rate_gbps; fabric_prio and
   * fabric_mtu are the RoCE ports' configuration, ib_port_config whether an InfiniBand site's agents
   * publish their ports' configuration (read by the simulator's FabricPorts, not kept here).
   */
  public SiteConfig withOverrides(java.util.Map<String, Object> o) {
    for (String k : o.keySet()) {
      if (!java.util.Set.of("fabric", "nodes_per_job", "nodes_per_rack", "racks_per_loop", "gpu_model", "rack_cooling",
          "rack_cooling_capacity_kw", "link_rate_gbps", "fabric_prio", "fabric_mtu", "ib_port_config").contains(k)) {
        throw new IllegalArgumentException("unknown site key '" + k + "'");
      }
    }
    return new SiteConfig(cluster, nodes, gpusPerNode, intOr(o, "nodes_per_rack", nodesPerRack),
        intOr(o, "racks_per_loop", racksPerLoop), racksPerRow, intOr(o, "nodes_per_job", nodesPerJob),
        strOr(o, "gpu_model", gpuModel), strOr(o, "fabric", fabric), numOr(o, "link_rate_gbps", linkRateGbps),
        strOr(o, "rack_cooling", rackCooling), numOr(o, "rack_cooling_capacity_kw", rackCoolingCapacityKw));
  }

  private static int intOr(java.util.Map<String, Object> o, String k, int d) {
    return o.get(k) == null ? d : ((Number) o.get(k)).intValue();
  }

  private static double numOr(java.util.Map<String, Object> o, String k, double d) {
    return o.get(k) == null ? d : ((Number) o.get(k)).doubleValue();
  }

  private static String strOr(java.util.Map<String, Object> o, String k, String d) {
    return o.get(k) == null ? d : o.get(k).toString();
  }

  private static void require(boolean ok, String msg) {
    if (!ok) {
      throw new IllegalArgumentException(msg);
    }
  }
}
