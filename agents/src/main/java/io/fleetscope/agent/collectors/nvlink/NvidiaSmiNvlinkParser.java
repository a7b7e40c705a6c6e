package io.fleetscope.agent.collectors.nvlink;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.NvlinkSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the text of {@code nvidia-smi nvlink -s} (link state and speed), {@code nvidia-smi nvlink -e}
 * (replay, recovery and CRC error counters) and {@code nvidia-smi nvlink -gt d} (data payload
 * throughput counters in KiB), and merges them into one {@link NvlinkSample} per GPU and link.
 *
 * <p>All three print a {@code GPU N: MODEL (UUID: ...)} header followed by indented {@code Link L: ...}
 * lines. {@code -s} prints {@code Link L: 26.562 GB/s} for an active link and {@code Link L: <inactive>}
 * for an inactive one; a GPU in MIG mode prints {@code Nvlink queries are not supported for Devices in
 * MIG mode} instead of links. Lines this parser does not know are ignored, never guessed at.
 */
public final class NvidiaSmiNvlinkParser {
  private NvidiaSmiNvlinkParser() {}

  public static final String SOURCE = "nvidia-smi-nvlink";

  private static final Pattern GPU = Pattern.compile("^\\s*GPU (\\d+): .*?\\(UUID: ([^)]+)\\)\\s*$");
  private static final Pattern LINK = Pattern.compile("^\\s*Link (\\d+): (.+?)\\s*$");
  private static final Pattern SPEED = Pattern.compile("^([0-9]+(?:\\.[0-9]+)?) GB/s$");
  private static final Pattern COUNTER = Pattern.compile("^([A-Za-z][A-Za-z ]*?): ([0-9]+)(?: KiB)?$");
  private static final String MIG_UNSUPPORTED = "not supported for Devices in MIG mode";

  /** What the three outputs say about one node: the link readings and the GPUs that have none (MIG mode). */
  public record Result(List<NvlinkSample> samples, List<Integer> migModeGpus) {}

  /** One link while the outputs are merged. */
  private static final class Link {
    final int gpu;
    final String uuid;
    final int link;
    String state;
    Double speedGbps;
    Long txBytes;
    Long rxBytes;
    Long crcErrors;
    Long replayErrors;
    Long recoveryErrors;

    Link(int gpu, String uuid, int link) {
      this.gpu = gpu;
      this.uuid = uuid;
      this.link = link;
    }
  }

  private record Key(int gpu, int link) {}

  /** A {@code Link L: value} line under the header of GPU {@code gpu}. */
  private interface LineHandler {
    void accept(Link l, String value);
  }

  /**
   * Merges the outputs (any of them may be null: that command is not configured or failed) into
   * records ordered by GPU and link.
   */
  public static Result parse(String status, String errors, String throughput, CollectContext ctx) {
    Map<Key, Link> links = new LinkedHashMap<>();
    TreeSet<Integer> migGpus = new TreeSet<>();
    if (status != null) read(status, links, migGpus, NvidiaSmiNvlinkParser::status);
    if (errors != null) read(errors, links, migGpus, NvidiaSmiNvlinkParser::errorCounter);
    if (throughput != null) read(throughput, links, migGpus, NvidiaSmiNvlinkParser::throughputCounter);
    List<Link> ordered = new ArrayList<>(links.values());
    ordered.sort((a, b) -> a.gpu != b.gpu ? Integer.compare(a.gpu, b.gpu) : Integer.compare(a.link, b.link));
    List<NvlinkSample> out = new ArrayList<>(ordered.size());
    for (Link l : ordered) {
      out.add(NvlinkSample.newBuilder()
          .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
          .setGpu(l.gpu).setUuid(l.uuid).setLink(l.link).setState(l.state).setSpeedGbps(l.speedGbps)
          .setTxBytes(l.txBytes).setRxBytes(l.rxBytes)
          .setCrcFlitErrors(null).setCrcDataErrors(null).setCrcErrors(l.crcErrors)
          .setReplayErrors(l.replayErrors).setRecoveryErrors(l.recoveryErrors)
          .build());
    }
    return new Result(out, List.copyOf(migGpus));
  }

  private static void read(String text, Map<Key, Link> links, TreeSet<Integer> migGpus, LineHandler handler) {
    Integer gpu = null;
    String uuid = null;
    for (String line : text.split("\r?\n")) {
      Matcher g = GPU.matcher(line);
      if (g.matches()) {
        gpu = Integer.parseInt(g.group(1));
        uuid = g.group(2).trim();
        continue;
      }
      if (gpu == null) continue;
      if (line.contains(MIG_UNSUPPORTED)) {
        migGpus.add(gpu);
        continue;
      }
      Matcher m = LINK.matcher(line);
      if (!m.matches()) continue;
      int link = Integer.parseInt(m.group(1));
      final int gi = gpu;
      final String gu = uuid;
      Link l = links.computeIfAbsent(new Key(gi, link), k -> new Link(gi, gu, link));
      handler.accept(l, m.group(2));
    }
  }

  /** {@code 26.562 GB/s} (active) or {@code <inactive>}. */
  private static void status(Link l, String value) {
    if (value.equalsIgnoreCase("<inactive>")) {
      l.state = "inactive";
      return;
    }
    Matcher s = SPEED.matcher(value);
    if (s.matches()) {
      l.state = "active";
      l.speedGbps = Double.parseDouble(s.group(1));
    }
  }

  /** {@code Replay Errors: 0}, {@code Recovery Errors: 0}, {@code CRC Errors: 0}. */
  private static void errorCounter(Link l, String value) {
    Matcher c = COUNTER.matcher(value);
    if (!c.matches()) return;
    long n = Long.parseLong(c.group(2));
    switch (c.group(1)) {
      case "Replay Errors" -> l.replayErrors = n;
      case "Recovery Errors" -> l.recoveryErrors = n;
      case "CRC Errors" -> l.crcErrors = n;
      default -> { }
    }
  }

  /** {@code Data Tx: 5863784 KiB}, {@code Data Rx: 5863677 KiB}: payload counters, converted to bytes. */
  private static void throughputCounter(Link l, String value) {
    Matcher c = COUNTER.matcher(value);
    if (!c.matches()) return;
    long bytes = Math.multiplyExact(Long.parseLong(c.group(2)), 1024L);
    switch (c.group(1)) {
      case "Data Tx" -> l.txBytes = bytes;
      case "Data Rx" -> l.rxBytes = bytes;
      default -> { }
    }
  }
}
