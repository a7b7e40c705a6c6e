package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.NvlinkSample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NVLink fields of dcgm-exporter's /metrics (as grouped per GPU by {@link DcgmExporterParser#group})
 * -> {@link NvlinkSample}s, so a node running DCGM instead of {@code nvidia-smi nvlink} has NVLink
 * telemetry. DCGM names the link in the field, not in a label:
 * <ul>
 *   <li>{@code DCGM_FI_DEV_NVLINK_{CRC_FLIT,CRC_DATA,REPLAY,RECOVERY}_ERROR_COUNT_L<n>} and {@code ..._TOTAL}:
 *       raw error counters of link n, or of all links;</li>
 *   <li>{@code DCGM_FI_PROF_NVLINK_L<n>_{TX,RX}_BYTES} and {@code DCGM_FI_PROF_NVLINK_{TX,RX}_BYTES}: profiling
 *       rates in bytes per second (DCGM averages them over its sample period; they are not counters).</li>
 * </ul>
 * One record per GPU and link that has any of them; a GPU's all-links total goes out as link -1 and only
 * with the quantities no link of that GPU reports (so a sum over a node's records never counts twice).
 * DCGM's blank values (not supported, not found: integers from {@code 0x7ffffffffffffff0}, doubles from
 * 2^47) are no value. {@code DCGM_FI_DEV_NVLINK_BANDWIDTH_*} is not mapped: it counts tx and rx together,
 * so it fits neither direction. DCGM gives no link state here: {@code state} and {@code speed_gbps} stay
 * null (NvlinkDown needs the nvidia-smi collector).
 */
public final class DcgmNvlinkParser {
  private DcgmNvlinkParser() {}

  /** The link index of a GPU's all-links total. */
  public static final int ALL_LINKS = -1;

  private static final Pattern ERRORS =
      Pattern.compile("^DCGM_FI_DEV_NVLINK_(CRC_FLIT|CRC_DATA|REPLAY|RECOVERY)_ERROR_COUNT_(?:L(\\d+)|TOTAL)$");
  private static final Pattern RATE = Pattern.compile("^DCGM_FI_PROF_NVLINK_(?:L(\\d+)_)?(TX|RX)_BYTES$");
  /** DCGM_FP64_BLANK: double fields at or above it are DCGM's blank, not-found or not-supported markers. */
  private static final double FP64_BLANK = 0x1p47;
  /** DCGM_INT64_BLANK (0x7ffffffffffffff0) and up, as a double: rounds to 2^63. */
  private static final double INT64_BLANK = 0x1p63;

  /** The quantities of one link (or of the total) while a GPU's fields are read. */
  private static final class Link {
    Long crcFlit;
    Long crcData;
    Long replay;
    Long recovery;
    Double txRate;
    Double rxRate;

    boolean empty() {
      return crcFlit == null && crcData == null && replay == null && recovery == null && txRate == null && rxRate == null;
    }
  }

  public static List<NvlinkSample> parse(List<DcgmExporterParser.GpuFields> gpus, CollectContext ctx) {
    List<NvlinkSample> out = new ArrayList<>();
    for (DcgmExporterParser.GpuFields g : gpus) {
      TreeMap<Integer, Link> links = links(g.fields());
      Link total = links.remove(ALL_LINKS);
      if (total != null) {
        dropReportedPerLink(total, links.values());
        if (!total.empty()) links.put(ALL_LINKS, total);
      }
      for (Map.Entry<Integer, Link> e : links.entrySet()) {
        Link l = e.getValue();
        out.add(NvlinkSample.newBuilder()
            .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(DcgmExporterParser.SOURCE)
            .setGpu(g.gpu()).setUuid(g.uuid()).setLink(e.getKey()).setState(null).setSpeedGbps(null)
            .setTxBytes(null).setRxBytes(null)
            .setCrcFlitErrors(l.crcFlit).setCrcDataErrors(l.crcData).setCrcErrors(null)
            .setReplayErrors(l.replay).setRecoveryErrors(l.recovery)
            .setTxBytesPerS(l.txRate).setRxBytesPerS(l.rxRate)
            .build());
      }
    }
    return out;
  }

  /** Links by index (ALL_LINKS for the totals), in order, with the NVLink fields of one GPU. */
  private static TreeMap<Integer, Link> links(Map<String, Double> fields) {
    TreeMap<Integer, Link> links = new TreeMap<>();
    for (Map.Entry<String, Double> f : fields.entrySet()) {
      Matcher err = ERRORS.matcher(f.getKey());
      if (err.matches()) {
        Long n = counter(f.getValue());
        if (n == null) continue;
        Link l = links.computeIfAbsent(index(err.group(2)), k -> new Link());
        switch (err.group(1)) {
          case "CRC_FLIT" -> l.crcFlit = n;
          case "CRC_DATA" -> l.crcData = n;
          case "REPLAY" -> l.replay = n;
          default -> l.recovery = n;
        }
        continue;
      }
      Matcher rate = RATE.matcher(f.getKey());
      if (rate.matches()) {
        Double r = rate(f.getValue());
        if (r == null) continue;
        Link l = links.computeIfAbsent(index(rate.group(1)), k -> new Link());
        if (rate.group(2).equals("TX")) l.txRate = r;
        else l.rxRate = r;
      }
    }
    return links;
  }

  /** Clears from the total every quantity that a link reports, so no quantity is sent twice. */
  private static void dropReportedPerLink(Link total, Iterable<Link> links) {
    for (Link l : links) {
      if (l.crcFlit != null) total.crcFlit = null;
      if (l.crcData != null) total.crcData = null;
      if (l.replay != null) total.replay = null;
      if (l.recovery != null) total.recovery = null;
      if (l.txRate != null) total.txRate = null;
      if (l.rxRate != null) total.rxRate = null;
    }
  }

  private static int index(String link) {
    return link == null ? ALL_LINKS : Integer.parseInt(link);
  }

  private static Long counter(Double d) {
    return d == null || d < 0 || d >= INT64_BLANK ? null : (long) (double) d;
  }

  private static Double rate(Double d) {
    return d == null || d < 0 || d >= FP64_BLANK ? null : d;
  }
}
