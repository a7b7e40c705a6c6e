package io.fleetscope.agent.collectors.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's GRES on one node as Slurm prints it: {@code scontrol -d show job} ({@code GRES=} of each
 * {@code Nodes=} line) and squeue print a comma-separated list of entries {@code NAME[:TYPE]:COUNT},
 * each optionally followed by a parenthesised part:
 *
 * <ul>
 *   <li>{@code (IDX:0-2,5)}: the node's GRES indexes allocated (Slurm's bit_fmt of the job's bitmap,
 *       so the list has commas of its own); {@code (IDX:)} and {@code (IDX:N/A)} name none;
 *   <li>{@code (CNT:2)}: a count without indexes; {@code (S:0-1)}: sockets, no indexes;
 *   <li>shared GRES (shard, mps): {@code (1/4,0/4)} per-device shares, no indexes.
 * </ul>
 *
 * e.g. {@code gpu:a100_3g.20gb:1(IDX:3),gpu:a100:2(IDX:0-1)} (format of Slurm's
 * src/stepmgr/gres_stepmgr.c, {@code "%s%s:%lu(IDX:%s)"}). A {@code gres/} or {@code gres:} prefix
 * (squeue's TRES form) is dropped. Pure parsing; which device an index names is {@link SlurmGresOrder}'s.
 */
public final class SlurmGres {
  private SlurmGres() {}

  /** One entry: {@code type} null when untyped, {@code indexes} empty when Slurm printed none. */
  public record Entry(String name, String type, long count, List<Integer> indexes) {
    /** True when the type names a MIG profile ({@code 3g.20gb}, {@code 1c.3g.71gb}) or says MIG. */
    public boolean isMig() {
      return type != null && (PROFILE.matcher(type).find() || type.toLowerCase(java.util.Locale.ROOT).contains("mig"));
    }

    /** The MIG profile the type names ({@code 3g.20gb} of {@code a100_3g.20gb}), or null when it names none. */
    public String profile() {
      if (type == null) return null;
      Matcher m = PROFILE.matcher(type);
      return m.find() ? m.group() : null;
    }
  }

  /** A MIG profile as NVIDIA names it: optional compute slices, GPU slices, memory ({@code 1c.3g.71gb}, {@code 1g.10gb}). */
  static final Pattern PROFILE = Pattern.compile("(\\d+c\\.)?\\d+g\\.\\d+gb");

  /** The entries of {@code gres}; empty for blank, {@code (null)} and {@code N/A}. */
  public static List<Entry> parse(String gres) {
    List<Entry> out = new ArrayList<>();
    if (gres == null) return out;
    String s = gres.strip();
    if (s.isEmpty() || s.equals("(null)") || s.equals("N/A")) return out;
    for (String part : splitTopLevel(s)) {
      if (!part.isBlank()) out.add(entry(part.strip(), gres));
    }
    return out;
  }

  /** Every index of every entry named {@code name} (e.g. gpu), in the order printed, no duplicates. */
  public static List<Integer> indexes(List<Entry> entries, String name) {
    List<Integer> out = new ArrayList<>();
    for (Entry e : entries) {
      if (!e.name().equals(name)) continue;
      for (Integer i : e.indexes()) if (!out.contains(i)) out.add(i);
    }
    return out;
  }

  private static Entry entry(String part, String whole) {
    String head = part;
    String paren = null;
    int open = part.indexOf('(');
    if (open >= 0) {
      if (!part.endsWith(")")) throw bad(whole, "unbalanced parenthesis in '" + part + "'");
      head = part.substring(0, open);
      paren = part.substring(open + 1, part.length() - 1);
    }
    if (head.startsWith("gres/") || head.startsWith("gres:")) head = head.substring(5);
    List<String> f = new ArrayList<>(List.of(head.split(":", -1)));
    f.remove("no_consume");
    if (f.isEmpty() || f.get(0).isEmpty()) throw bad(whole, "no GRES name in '" + part + "'");
    String name = f.get(0);
    String type = null;
    long count = 1;
    if (f.size() == 2) {
      Long c = count(f.get(1));
      if (c == null) type = f.get(1); else count = c;
    } else if (f.size() >= 3) {
      type = String.join(":", f.subList(1, f.size() - 1));
      Long c = count(f.get(f.size() - 1));
      if (c == null) throw bad(whole, "count '" + f.get(f.size() - 1) + "' of '" + part + "' is not a number");
      count = c;
    }
    List<Integer> idx = List.of();
    if (paren != null && paren.startsWith("IDX:")) {
      String spec = paren.substring(4).strip();
      if (!spec.isEmpty() && !spec.equals("N/A")) idx = SlurmJobsParser.indices(spec, 0);
      if (f.size() == 1) count = idx.size(); // gpu(IDX:0,2-3,5): Slurm before 19.05 printed no count
    } else if (paren != null && paren.startsWith("CNT:")) {
      Long c = count(paren.substring(4));
      if (c != null) count = c;
    }
    return new Entry(name, type == null || type.isEmpty() ? null : type, count, idx);
  }

  /** A count such as 4, 4K (Slurm suffixes for large counts) or null when not a count. */
  private static Long count(String s) {
    try {
      return countOrNull(s);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("GRES count '" + s + "' is out of range");
    }
  }

  private static Long countOrNull(String s) {
    if (s.matches("\\d+")) return Long.parseLong(s);
    if (s.matches("\\d+[KMGTP]")) {
      long m = switch (s.charAt(s.length() - 1)) {
        case 'K' -> 1L << 10;
        case 'M' -> 1L << 20;
        case 'G' -> 1L << 30;
        case 'T' -> 1L << 40;
        default -> 1L << 50;
      };
      return Math.multiplyExact(Long.parseLong(s.substring(0, s.length() - 1)), m);
    }
    return null;
  }

  private static List<String> splitTopLevel(String s) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(') depth++;
      else if (c == ')') depth = Math.max(0, depth - 1);
      else if (c == ',' && depth == 0) {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    out.add(s.substring(start));
    return out;
  }

  private static IllegalArgumentException bad(String whole, String why) {
    return new IllegalArgumentException("GRES '" + whole + "': " + why);
  }
}
