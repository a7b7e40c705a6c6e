package io.fleetscope.agent.collectors.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Which job holds which GPU GRES of this node, from either source (what an index or id names is
 * {@link SlurmAllocations}'s):
 *
 * <ul>
 *   <li>the prolog/epilog file: one line per running job, {@code JOBID GPUS [USER [PARTITION]]},
 *       fields separated by blanks; {@code #} starts a comment. GPUS is a list of GRES indexes such
 *       as {@code 0,1,4-7} ({@code SLURM_JOB_GPUS}) and/or device ids ({@code CUDA_VISIBLE_DEVICES}
 *       of the prolog: {@code MIG-...} UUIDs on a MIG node, {@code GPU-...} UUIDs where gres.conf sets
 *       env_uuid, {@code MIG-GPU-UUID/GI/CI} before driver R470). The prolog appends the job's line,
 *       the epilog deletes it (see agents/examples/slurm/).
 *   <li>{@code squeue -h -t R -w NODE -o "%i|%u|%P|%b"}: {@code JOBID|USER|PARTITION|GRES}, GRES as
 *       {@link SlurmGres} reads it; indexes come from its {@code (IDX:...)} parts when Slurm prints
 *       them; a bare count ({@code gpu:4}) gives none.
 * </ul>
 */
public final class SlurmJobsParser {
  private SlurmJobsParser() {}

  /** One job on this node: its GRES entries (indexes) and the device ids it was given. */
  public record SlurmJob(String job, String user, String partition, List<SlurmGres.Entry> gres, List<String> deviceIds) {}

  public static List<SlurmJob> parseFile(String text) {
    List<SlurmJob> out = new ArrayList<>();
    int n = 0;
    for (String raw : text.split("\n")) {
      n++;
      String line = raw.replaceFirst("#.*$", "").strip();
      if (line.isEmpty()) continue;
      String[] f = line.split("\\s+");
      if (f.length < 2) throw new IllegalArgumentException("jobs file line " + n + ": expected 'JOBID GPUS [USER [PARTITION]]', got '" + line + "'");
      List<String> numeric = new ArrayList<>();
      List<String> ids = new ArrayList<>();
      for (String t : f[1].split(",")) {
        if (t.isBlank()) continue;
        if (t.startsWith("MIG-") || t.startsWith("GPU-")) ids.add(t);
        else numeric.add(t);
      }
      List<SlurmGres.Entry> gres = new ArrayList<>();
      if (!numeric.isEmpty()) {
        List<Integer> idx = indices(String.join(",", numeric), n);
        gres.add(new SlurmGres.Entry("gpu", null, idx.size(), idx));
      }
      out.add(new SlurmJob(f[0], f.length > 2 && !f[2].equals("-") ? f[2] : null, f.length > 3 && !f[3].equals("-") ? f[3] : null,
          List.copyOf(gres), List.copyOf(ids)));
    }
    return out;
  }

  public static List<SlurmJob> parseSqueue(String text) {
    List<SlurmJob> out = new ArrayList<>();
    int n = 0;
    for (String raw : text.split("\n")) {
      n++;
      String line = raw.strip();
      if (line.isEmpty()) continue;
      String[] f = line.split("\\|", -1);
      if (f.length < 4) throw new IllegalArgumentException("squeue line " + n + ": expected 'JOBID|USER|PARTITION|GRES', got '" + line + "'");
      List<SlurmGres.Entry> gres;
      try {
        gres = SlurmGres.parse(f[3]);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("squeue line " + n + ": " + e.getMessage());
      }
      out.add(new SlurmJob(f[0], f[1].isEmpty() ? null : f[1], f[2].isEmpty() ? null : f[2], gres, List.of()));
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
