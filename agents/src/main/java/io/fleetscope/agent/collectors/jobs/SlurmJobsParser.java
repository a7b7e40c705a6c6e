package io.fleetscope.agent.collectors.jobs;

import io.fleetscope.avro.GpuAllocation;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Which job owns which GPUs, from either source:
 *
 * <ul>
 *   <li>the prolog/epilog file: one line per running job, {@code JOBID GPUS [USER [PARTITION]]},
 *       fields separated by blanks, GPUS a list such as {@code 0,1,4-7}; {@code #} starts a comment.
 *       The prolog appends the job's line, the epilog deletes it (see agents/examples/slurm/).
 *   <li>{@code squeue -h -t R -w NODE -o "%i|%u|%P|%b"}: {@code JOBID|USER|PARTITION|GRES}; GPU
 *       indices come from an {@code IDX:0-3} part of GRES when Slurm prints one; a bare count
 *       ({@code gpu:4}) gives no indices (the allocation is sent with an empty list).
 * </ul>
 */
public final class SlurmJobsParser {
  private SlurmJobsParser() {}

  public static List<GpuAllocation> parseFile(String text) {
    List<GpuAllocation> out = new ArrayList<>();
    int n = 0;
    for (String raw : text.split("\n")) {
      n++;
      String line = raw.replaceFirst("#.*$", "").strip();
      if (line.isEmpty()) continue;
      String[] f = line.split("\\s+");
      if (f.length < 2) throw new IllegalArgumentException("jobs file line " + n + ": expected 'JOBID GPUS [USER [PARTITION]]', got '" + line + "'");
      out.add(GpuAllocation.newBuilder().setJob(f[0]).setGpus(indices(f[1], n))
          .setUser(f.length > 2 && !f[2].equals("-") ? f[2] : null).setPartition(f.length > 3 && !f[3].equals("-") ? f[3] : null).build());
    }
    return out;
  }

  public static List<GpuAllocation> parseSqueue(String text) {
    List<GpuAllocation> out = new ArrayList<>();
    int n = 0;
    for (String raw : text.split("\n")) {
      n++;
      String line = raw.strip();
      if (line.isEmpty()) continue;
      String[] f = line.split("\\|", -1);
      if (f.length < 4) throw new IllegalArgumentException("squeue line " + n + ": expected 'JOBID|USER|PARTITION|GRES', got '" + line + "'");
      List<Integer> gpus = new ArrayList<>();
      int idx = f[3].indexOf("IDX:");
      if (idx >= 0) {
        String spec = f[3].substring(idx + 4).replaceFirst("[)].*$", "");
        gpus = indices(spec, n);
      }
      out.add(GpuAllocation.newBuilder().setJob(f[0]).setGpus(gpus)
          .setUser(f[1].isEmpty() ? null : f[1]).setPartition(f[2].isEmpty() ? null : f[2]).build());
    }
    return out;
  }

  /** {@code 0,1,4-7} -> [0, 1, 4, 5, 6, 7] (sorted, distinct). */
  public static List<Integer> indices(String spec, int lineNo) {
    TreeSet<Integer> s = new TreeSet<>();
    for (String part : spec.split(",")) {
      String p = part.strip();
      if (p.isEmpty()) continue;
      try {
        int dash = p.indexOf('-');
        if (dash > 0) {
          int a = Integer.parseInt(p.substring(0, dash));
          int b = Integer.parseInt(p.substring(dash + 1));
          if (b < a || b - a > 1024) throw new NumberFormatException();
          for (int i = a; i <= b; i++) s.add(i);
        } else {
          s.add(Integer.parseInt(p));
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("line " + lineNo + ": GPU list '" + spec + "' is not like 0,1,4-7");
      }
    }
    return new ArrayList<>(s);
  }
}
