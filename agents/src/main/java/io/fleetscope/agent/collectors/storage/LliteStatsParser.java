package io.fleetscope.agent.collectors.storage;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.StorageSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pure: Lustre client statistics -> one {@link StorageSample} of tier {@code lustre} per file system
 * instance. Reads either one {@code /proc/fs/lustre/llite/<fs>/stats} file (the instance named by
 * the caller) or the output of {@code lctl get_param llite.*.stats}, where each instance starts with
 * a {@code llite.<fs>.stats=} line; other parameters in that output are skipped.
 *
 * <p>A stats line is {@code name count samples [unit] min max sum sumsq}: {@code read_bytes} and
 * {@code write_bytes} give bytes (sum) and calls (count); {@code read} and {@code write} in
 * {@code [usecs]} (Lustre 2.12 and later) give the time spent in the calls (sum, converted to ms).
 */
public final class LliteStatsParser {
  private LliteStatsParser() {}

  public static final String SOURCE = "lustre-llite";
  public static final String TIER = "lustre";

  /** The stats of one instance, from its own stats file. */
  public static StorageSample parseFile(String text, String instance, CollectContext ctx) {
    return toSample(instance, stats(List.of(text.split("\n"))), ctx);
  }

  /** Every {@code llite.<fs>.stats=} block of an {@code lctl get_param} output, in order. */
  public static List<StorageSample> parseGetParam(String text, CollectContext ctx) {
    List<StorageSample> out = new ArrayList<>();
    String instance = null;
    List<String> block = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.contains("=") && !Character.isWhitespace(line.isEmpty() ? ' ' : line.charAt(0)) && line.indexOf(' ') < 0) {
        if (instance != null) out.add(toSample(instance, stats(block), ctx));
        instance = null;
        block.clear();
        String param = line.substring(0, line.indexOf('='));
        if (param.startsWith("llite.") && param.endsWith(".stats")) {
          instance = param.substring("llite.".length(), param.length() - ".stats".length());
        }
        continue;
      }
      if (instance != null) block.add(line);
    }
    if (instance != null) out.add(toSample(instance, stats(block), ctx));
    return out;
  }

  /** One stats line: its count and, where present, its sum. */
  record Stat(long count, Long sum, String unit) {}

  static Map<String, Stat> stats(List<String> lines) {
    Map<String, Stat> m = new LinkedHashMap<>();
    for (String raw : lines) {
      String[] f = raw.trim().split("\\s+");
      if (f.length < 4 || !"samples".equals(f[2])) continue;
      try {
        long count = Long.parseLong(f[1]);
        String unit = f[3].replaceAll("[\\[\\]]", "");
        Long sum = f.length >= 7 ? Long.parseLong(f[6]) : null;
        m.put(f[0], new Stat(count, sum, unit));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("llite stats line is not 'name count samples [unit] min max sum': " + raw.trim());
      }
    }
    return m;
  }

  private static StorageSample toSample(String instance, Map<String, Stat> s, CollectContext ctx) {
    Stat rb = s.get("read_bytes");
    Stat wb = s.get("write_bytes");
    return StorageSample.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setTier(TIER).setDevice(instance)
        .setReadBytes(rb == null ? 0L : orZero(rb.sum()))
        .setWriteBytes(wb == null ? 0L : orZero(wb.sum()))
        .setReadOps(rb == null ? 0L : rb.count())
        .setWriteOps(wb == null ? 0L : wb.count())
        .setReadTimeMs(millis(s.get("read")))
        .setWriteTimeMs(millis(s.get("write")))
        .build();
  }

  private static long orZero(Long v) {
    return v == null ? 0L : v;
  }

  /** Time of a {@code [usecs]} line in ms; null when the client does not time the call (before 2.12). */
  private static Long millis(Stat t) {
    if (t == null || t.sum() == null || !t.unit().startsWith("usec")) return null;
    return t.sum() / 1000;
  }
}
