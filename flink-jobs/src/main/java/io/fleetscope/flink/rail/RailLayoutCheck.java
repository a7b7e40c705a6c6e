package io.fleetscope.flink.rail;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * From fleet.inventory.v1 (pure; no Flink): a node whose GPUs outnumber its rails, so two GPUs'
 * traffic shares one HCA/rail (a single-rail or shared-HCA layout) -> RailImbalance with
 * {@code layout=shared-hca}; resolved when the inventory shows one rail per GPU again.
 */
public final class RailLayoutCheck implements Serializable {
  private static final long serialVersionUID = 1L;
  private final AlertTracker alerts = new AlertTracker();

  public Anomaly check(InventoryRecord inv, AnomalyFactory f) {
    if (!"node".equals(inv.getKind()) || inv.getGpus().isEmpty() || inv.getHcas().isEmpty()) {
      return null;
    }
    TreeMap<Integer, TreeSet<String>> hcasByRail = new TreeMap<>();
    for (HcaInfo h : inv.getHcas()) {
      if (h.getRail() != null) {
        hcasByRail.computeIfAbsent(h.getRail(), r -> new TreeSet<>()).add(h.getDevice() + ":" + h.getPort());
      }
    }
    if (hcasByRail.isEmpty()) {
      return null;
    }
    int gpus = inv.getGpus().size();
    int rails = hcasByRail.size();
    boolean shared = gpus > rails;
    StringBuilder map = new StringBuilder();
    for (Map.Entry<Integer, TreeSet<String>> e : hcasByRail.entrySet()) {
      map.append(map.length() == 0 ? "" : ", ").append("rail ").append(e.getKey()).append("=").append(e.getValue());
    }
    double perGpu = (double) rails / gpus;
    return alerts.update(f.alert("RailImbalance", "warning")
        .label("cluster", inv.getCluster()).label("node", inv.getId()).label("layout", "shared-hca")
        .context("rack", inv.getRack())
        .summary("GPUs of " + inv.getId() + " share HCAs: " + gpus + " GPUs on " + rails + " rails")
        .description(String.format(java.util.Locale.ROOT,
            "node %s has %d GPUs but only %d rails (%s): at least two GPUs' scale-out traffic shares one HCA/rail, "
                + "so each GPU gets about %.2f of a rail and rail-aligned collectives slow down; expected one HCA per GPU",
            inv.getId(), gpus, rails, map, perGpu))
        .value((double) rails / gpus), shared, inv.getTs());
  }
}
