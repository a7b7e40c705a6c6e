package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuSample;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Assembles the loop-mode output of {@code nvidia-smi --query-gpu=FIELDS --format=csv[,noheader][,nounits]
 * -lms N} line by line into blocks, one per probe (one row per GPU). nvidia-smi prints the header
 * once at the start (none with {@code noheader}: the columns are then the configured fields), then
 * every interval one row per GPU. A block ends when a row names a GPU index the block already has
 * (the next probe began) or when the output pauses after a line ({@link #pause}); a block seen at a
 * pause stays open, so rows that arrive after a pause in the middle of a probe still join it.
 *
 * <p>Pure: no I/O and no clock; {@link NvidiaSmiCsvStream} feeds it. A bad line (cell count not the
 * header's, no GPU index) spoils the block it is in: that block is never handed out, and the
 * error is kept for {@link #lastError}.
 */
public final class NvidiaSmiCsvBlocks {
  /** One probe's rows (column name without unit -> cell text), in the order printed. */
  public record Block(List<Map<String, String>> rows) {
    /** One sample per row, stamped with the round's facts. */
    public List<GpuSample> samples(CollectContext ctx) {
      List<GpuSample> out = new ArrayList<>(rows.size());
      for (Map<String, String> r : rows) out.add(NvidiaSmiCsvParser.toSample(r, ctx));
      return out;
    }
  }

  private final List<String> configuredColumns;
  private List<String> columns;
  private final Map<Integer, Map<String, String>> open = new LinkedHashMap<>();
  private boolean spoiled;
  private String lastError;
  private long lines;

  /** @param fields the queried fields, in order: the columns of output without a header */
  public NvidiaSmiCsvBlocks(List<String> fields) {
    this.configuredColumns = List.copyOf(fields);
    this.columns = configuredColumns;
  }

  /** A new process starts: its header (if any) comes first again, and a half-read block is dropped. */
  public void restart() {
    columns = configuredColumns;
    open.clear();
    spoiled = false;
    lines = 0;
  }

  /**
   * Feeds one line. Returns the block this line ended (the previous probe, complete), or null.
   * Blank lines and lines starting with {@code #} are skipped.
   */
  public Block line(String line) {
    String l = line.strip();
    if (l.isEmpty() || l.startsWith("#")) return null;
    lines++;
    List<String> cells = NvidiaSmiCsvParser.split(l);
    List<String> names = withoutUnits(cells);
    if (names.contains("index")) { // a header: first line of csv output (repeated by nothing we know of)
      Block done = finish();
      columns = names;
      return done;
    }
    if (cells.size() != columns.size()) {
      return spoil("nvidia-smi stream line " + lines + " has " + cells.size() + " cells, expected " + columns.size()
          + (columns == configuredColumns ? " (the configured fields; is the command's --query-gpu the same?)" : " (its header)"));
    }
    Map<String, String> row = new HashMap<>(columns.size() * 2);
    for (int i = 0; i < columns.size(); i++) row.put(columns.get(i), cells.get(i));
    Integer gpu = Values.integer(row.get("index"));
    if (gpu == null) return spoil("nvidia-smi stream line " + lines + " has no GPU index: '" + row.get("index") + "'");
    Block done = open.containsKey(gpu) ? finish() : null;
    open.put(gpu, row);
    return done;
  }

  /** The output paused after a line: the open block as it is now (it stays open), or null if none or spoiled. */
  public Block pause() {
    return open.isEmpty() || spoiled ? null : new Block(List.copyOf(open.values()));
  }

  /** The last bad line's error, or null when none was seen. */
  public String lastError() {
    return lastError;
  }

  private Block spoil(String error) {
    lastError = error;
    spoiled = true;
    return null;
  }

  private Block finish() {
    Block b = open.isEmpty() || spoiled ? null : new Block(List.copyOf(open.values()));
    open.clear();
    spoiled = false;
    return b;
  }

  private static List<String> withoutUnits(List<String> cells) {
    List<String> out = new ArrayList<>(cells.size());
    for (String h : cells) {
      int b = h.indexOf(" [");
      out.add(b < 0 ? h : h.substring(0, b));
    }
    return out;
  }
}
