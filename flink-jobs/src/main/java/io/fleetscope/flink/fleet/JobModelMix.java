package io.fleetscope.flink.fleet;

import io.fleetscope.flink.core.AlertChange;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * JobMixedGpuModels for one job: which GPUs of which nodes the job holds (from fleet.jobs.v1) and
 * their models (from the inventory). Fires when they span more than one model, naming the slowest,
 * which bounds a synchronous data-parallel job; resolves when they no longer do or the job ends.
 */
public final class JobModelMix implements Serializable {
  private final ModelRanking ranking;
  private final Map<String, List<Integer>> gpusByNode = new TreeMap<>();
  private TreeSet<String> firingModels;

  public JobModelMix(ModelRanking ranking) {
    this.ranking = ranking;
  }

  /**
   * Applies the job's allocation on one node (an empty list: the job left the node) and returns
   * the alert change it causes, if any.
   *
   * @param modelOf (node, gpu index) -> model from the inventory, null when unknown
   */
  public List<AlertChange> onAllocation(String cluster, String job, String node, List<Integer> gpus,
      BiFunction<String, Integer, String> modelOf) {
    if (gpus == null || gpus.isEmpty()) {
      gpusByNode.remove(node);
    } else {
      gpusByNode.put(node, List.copyOf(gpus));
    }
    return evaluate(cluster, job, modelOf);
  }

  /** Re-evaluates with the current allocations (e.g. after an inventory change). */
  public List<AlertChange> evaluate(String cluster, String job, BiFunction<String, Integer, String> modelOf) {
    Map<String, Integer> gpusPerModel = new TreeMap<>();
    Map<String, String> exampleNode = new TreeMap<>();
    for (Map.Entry<String, List<Integer>> e : gpusByNode.entrySet()) {
      for (Integer g : e.getValue()) {
        String m = modelOf.apply(e.getKey(), g);
        if (m != null && !m.isBlank()) {
          String model = m.trim();
          gpusPerModel.merge(model, 1, Integer::sum);
          exampleNode.putIfAbsent(model, e.getKey());
        }
      }
    }
    TreeSet<String> models = new TreeSet<>(gpusPerModel.keySet());
    boolean mixed = models.size() > 1;
    List<AlertChange> out = new ArrayList<>();
    if (mixed && !models.equals(firingModels)) {
      if (firingModels != null) {
        out.add(change(false, cluster, job, firingModels, Map.of(), Map.of()));
      }
      firingModels = models;
      out.add(change(true, cluster, job, models, gpusPerModel, exampleNode));
    } else if (!mixed && firingModels != null) {
      out.add(change(false, cluster, job, firingModels, gpusPerModel, exampleNode));
      firingModels = null;
    }
    return out;
  }

  public boolean empty() {
    return gpusByNode.isEmpty();
  }

  public boolean firing() {
    return firingModels != null;
  }

  private AlertChange change(boolean fire, String cluster, String job, TreeSet<String> models,
      Map<String, Integer> gpusPerModel, Map<String, String> exampleNode) {
    String slowest = ranking.slowest(models);
    Map<String, String> l = new LinkedHashMap<>();
    l.put("cluster", cluster);
    l.put("job", job);
    l.put("models", String.join(",", models));
    StringBuilder d = new StringBuilder("GPU models: ");
    if (fire) {
      List<String> parts = new ArrayList<>();
      gpusPerModel.forEach((m, n) -> parts.add(n + "x " + m + " (e.g. " + exampleNode.get(m) + ")"));
      d.append(String.join(", ", parts));
      d.append("; the slowest, ").append(slowest).append(", bounds the job's step time");
    } else {
      d.append("the job no longer spans different models");
    }
    return new AlertChange("JobMixedGpuModels", "warning", fire, models.size(), l,
        "Job " + job + " runs on mixed GPU models, bounded by " + slowest, d.toString());
  }
}
