package io.fleetscope.agent.collectors.xid;

import io.fleetscope.agent.collectors.gpu.PciBusId;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuXid;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kernel log lines {@code NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.}
 * (bare, dmesg, syslog or journalctl prefixes all work) -> one {@link GpuXid} per line. The PCI
 * address maps to a GPU index through {@code pciToGpu} (keys normalised by {@link PciBusId#normalize}).
 */
public final class XidLogParser {
  private XidLogParser() {}

  public static final String SOURCE = "kernel-log";
  private static final Pattern XID = Pattern.compile("NVRM: Xid \\(PCI:([0-9A-Fa-f]+:[0-9A-Fa-f]+:[0-9A-Fa-f]+(?:\\.[0-9A-Fa-f]+)?)\\): (\\d{1,9}),\\s*(.*)$");
  private static final Pattern PID = Pattern.compile("\\bpid='?(\\d{1,18})(?!\\d)'?");

  public static List<GpuXid> parse(String text, Map<String, Integer> pciToGpu, CollectContext ctx) {
    return parse(text, pciToGpu, ctx, ZoneId.systemDefault(), -1);
  }

  /**
   * @param zone the zone of syslog and {@code dmesg -T} times (the node's local time)
   * @param bootMillis boot time for dmesg's seconds since boot, negative when unknown
   */
  public static List<GpuXid> parse(String text, Map<String, Integer> pciToGpu, CollectContext ctx, ZoneId zone, long bootMillis) {
    List<GpuXid> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      GpuXid x = parseLine(line, pciToGpu, ctx, zone, bootMillis);
      if (x != null) out.add(x);
    }
    return out;
  }

  /** Null when the line is not an XID line. */
  public static GpuXid parseLine(String line, Map<String, Integer> pciToGpu, CollectContext ctx) {
    return parseLine(line, pciToGpu, ctx, ZoneId.systemDefault(), -1);
  }

  /**
   * Null when the line is not an XID line. The record's ts is the line's own time (see
   * {@link KernelLineTime}); the read time only for lines without one.
   */
  public static GpuXid parseLine(String line, Map<String, Integer> pciToGpu, CollectContext ctx, ZoneId zone, long bootMillis) {
    Matcher m = XID.matcher(line.stripTrailing());
    if (!m.find()) return null;
    String pci = PciBusId.normalize(m.group(1));
    String message = m.group(3).strip();
    Matcher p = PID.matcher(message);
    Long pid = p.find() ? Long.valueOf(p.group(1)) : null;
    Long logged = KernelLineTime.parse(line, zone, ctx.ts(), bootMillis);
    return GpuXid.newBuilder()
        .setTs(logged != null ? logged : ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setGpu(pciToGpu.get(pci))
        .setPciBusId(pci)
        .setXid(Integer.parseInt(m.group(2)))
        .setMessage(message)
        .setPid(pid)
        .build();
  }

}
