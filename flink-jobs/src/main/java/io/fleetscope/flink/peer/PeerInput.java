package io.fleetscope.flink.peer;

/**
 * One member's means over one peer window, with its peer group looked up in the topology, for the
 * group-keyed {@link PeerWindowFunction} (a POJO, so Flink serializes it without Kryo).
 */
public class PeerInput {
  public static final int GPU = 0;
  public static final int LINK = 1;

  public int kind;
  public String cluster;
  /**
   * Space-separated key=value terms: e.g. {@code job=llm-7 model=NVIDIA H100 80GB HBM3},
   * {@code rack=r1 model=NVIDIA H100 80GB HBM3}, {@code rail=3 job=llm-7}, {@code rail=3 jobs=a+b}, {@code rail=3}.
   */
  public String group;
  /** e.g. n1/3 (node/gpu) or n1/mlx5_0/1 (node/device/port). */
  public String member;
  public long windowEnd;
  public String node;
  public int gpu;
  public String device;
  public int port;
  public int rail;
  public String rack;

  public double tempSum;
  public int tempCount;
  public double powerSum;
  public int powerCount;
  public double smClockSum;
  public int smClockCount;

  public Double txGbps;
  public Double xmitWaitPerS;

  public PeerInput() {}

  public String groupKey() {
    return cluster + "|" + kind + "|" + group;
  }

  /** Whether the group was formed by job membership (its members do the same job's work). */
  public boolean groupByJob() {
    return byJob(group);
  }

  static boolean byJob(String group) {
    return group != null && (group.startsWith("job=") || group.contains(" job=") || group.contains(" jobs="));
  }

  GpuWindowStats stats() {
    GpuWindowStats s = new GpuWindowStats();
    s.tempSum = tempSum;
    s.tempCount = tempCount;
    s.powerSum = powerSum;
    s.powerCount = powerCount;
    s.smClockSum = smClockSum;
    s.smClockCount = smClockCount;
    return s;
  }

  Double linkMetric(String name) {
    return switch (name) {
      case "tx_gbps" -> txGbps;
      case "xmit_wait_per_s" -> xmitWaitPerS;
      default -> throw new IllegalArgumentException("peer: unknown link metric " + name
          + " (known: tx_gbps, xmit_wait_per_s)");
    };
  }

  public static final java.util.Comparator<PeerInput> ORDER =
      java.util.Comparator.comparingLong((PeerInput p) -> p.windowEnd).thenComparing(p -> p.member);
}
