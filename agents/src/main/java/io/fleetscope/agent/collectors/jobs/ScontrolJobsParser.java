package io.fleetscope.agent.collectors.jobs;

import java.util.ArrayList;
import java.util.List;

/**
 * The running jobs on one node from {@code scontrol -d show job} (one job per paragraph) or
 * {@code scontrol -d -o show job} (one job per line): {@code JobId}, {@code UserId=name(uid)},
 * {@code Partition}, {@code JobState}, and the per-node detail {@code Nodes=HOSTLIST ... GRES=...}
 * ({@code GRES_IDX=} before Slurm 19.05) that names the GRES indexes a job holds on those nodes,
 * the only Slurm command output that does. A job whose detail names no GRES for the node (or that
 * has no detail, without {@code -d}) but whose {@code NodeList} holds the node is sent without GPUs.
 */
public final class ScontrolJobsParser {
  private ScontrolJobsParser() {}

  /** The jobs in state RUNNING that hold {@code node}. */
  public static List<SlurmJobsParser.SlurmJob> parse(String text, String node) {
    List<SlurmJobsParser.SlurmJob> out = new ArrayList<>();
    for (String record : text.split("(?m)^(?=JobId=)")) {
      if (!record.startsWith("JobId=")) continue;
      SlurmJobsParser.SlurmJob j = job(tokens(record), node);
      if (j != null) out.add(j);
    }
    return out;
  }

  private static SlurmJobsParser.SlurmJob job(List<String[]> kv, String node) {
    String id = null;
    String user = null;
    String partition = null;
    String state = null;
    boolean onNode = false;
    boolean inGroup = false;
    List<SlurmGres.Entry> gres = new ArrayList<>();
    for (String[] p : kv) {
      switch (p[0]) {
        case "JobId" -> id = p[1];
        case "UserId" -> user = p[1].replaceFirst("\\(.*$", "");
        case "Partition" -> partition = p[1];
        case "JobState" -> state = p[1];
        case "NodeList" -> onNode |= Hostlist.contains(p[1], node);
        case "Nodes" -> {
          inGroup = Hostlist.contains(p[1], node);
          onNode |= inGroup;
        }
        case "GRES", "GRES_IDX" -> {
          if (inGroup) {
            try {
              gres.addAll(SlurmGres.parse(p[1]));
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException("scontrol job " + id + ": " + e.getMessage());
            }
          }
        }
        default -> { }
      }
    }
    if (id == null || !"RUNNING".equals(state) || !onNode) return null;
    return new SlurmJobsParser.SlurmJob(id, user == null || user.isEmpty() ? null : user, partition, List.copyOf(gres), List.of());
  }

  /** KEY=VALUE tokens; a blank-separated word without {@code =} continues the previous value (a path with a space). */
  private static List<String[]> tokens(String record) {
    List<String[]> out = new ArrayList<>();
    for (String word : record.strip().split("\\s+")) {
      int eq = word.indexOf('=');
      if (eq > 0) {
        out.add(new String[] {word.substring(0, eq), word.substring(eq + 1)});
      } else if (!out.isEmpty()) {
        String[] last = out.get(out.size() - 1);
        last[1] = last[1] + " " + word;
      }
    }
    return out;
  }
}
