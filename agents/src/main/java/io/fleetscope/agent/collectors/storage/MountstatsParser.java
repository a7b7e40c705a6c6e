package io.fleetscope.agent.collectors.storage;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.StorageSample;
import java.util.ArrayList;
import java.util.List;

/**
 * Pure: {@code /proc/self/mountstats} -> one {@link StorageSample} of tier {@code nfs} per NFS mount
 * (fstype nfs or nfs4). Bytes come from the {@code bytes:} line (fields 5 and 6: bytes read and
 * written on the wire by READ and WRITE, which is what reaches the server); operations and times
 * from the per-op {@code READ:} and {@code WRITE:} lines, whose fields are: operations,
 * transmissions, major timeouts, bytes sent, bytes received, queue ms, RTT ms, execute ms (and, in
 * kernels since 4.16, errors). Other mounts are skipped.
 */
public final class MountstatsParser {
  private MountstatsParser() {}

  public static final String SOURCE = "nfs-mountstats";
  public static final String TIER = "nfs";

  public static List<StorageSample> parse(String text, CollectContext ctx) {
    List<StorageSample> out = new ArrayList<>();
    StorageSample.Builder cur = null;
    for (String raw : text.split("\n")) {
      String line = raw.trim();
      if (line.startsWith("device ")) {
        if (cur != null) out.add(cur.build());
        cur = null;
        String mount = mountOf(line);
        if (mount != null) {
          cur = StorageSample.newBuilder()
              .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
              .setTier(TIER).setDevice(mount)
              .setReadBytes(0L).setWriteBytes(0L).setReadOps(0L).setWriteOps(0L).setReadTimeMs(0L).setWriteTimeMs(0L).setWriteRttMs(0L);
        }
        continue;
      }
      if (cur == null) continue;
      if (line.startsWith("bytes:")) {
        long[] v = numbers(line, "bytes:");
        if (v.length < 6) throw new IllegalArgumentException("mountstats bytes line of " + cur.getDevice() + " has " + v.length + " fields, expected 8");
        cur.setReadBytes(v[4]).setWriteBytes(v[5]);
      } else if (line.startsWith("READ:")) {
        long[] v = op(line, "READ:", cur.getDevice());
        cur.setReadOps(v[0]).setReadTimeMs(v[7]);
      } else if (line.startsWith("WRITE:")) {
        long[] v = op(line, "WRITE:", cur.getDevice());
        cur.setWriteOps(v[0]).setWriteRttMs(v[6]).setWriteTimeMs(v[7]);
      }
    }
    if (cur != null) out.add(cur.build());
    return out;
  }

  /** The mount point of an NFS {@code device X mounted on Y with fstype nfs4 ...} line; null for other file systems. */
  static String mountOf(String line) {
    int on = line.indexOf(" mounted on ");
    int with = line.lastIndexOf(" with fstype ");
    if (on < 0 || with < on) return null;
    String[] rest = line.substring(with + " with fstype ".length()).trim().split("\\s+");
    if (!rest[0].equals("nfs") && !rest[0].equals("nfs4")) return null;
    return line.substring(on + " mounted on ".length(), with);
  }

  private static long[] op(String line, String prefix, String mount) {
    long[] v = numbers(line, prefix);
    if (v.length < 8) throw new IllegalArgumentException("mountstats " + prefix + " line of " + mount + " has " + v.length + " fields, expected 8 or 9");
    return v;
  }

  private static long[] numbers(String line, String prefix) {
    String[] f = line.substring(prefix.length()).trim().split("\\s+");
    long[] v = new long[f.length];
    for (int i = 0; i < f.length; i++) {
      try {
        v[i] = Long.parseUnsignedLong(f[i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("mountstats " + prefix + " field " + (i + 1) + " is not a counter: " + f[i]);
      }
    }
    return v;
  }
}
