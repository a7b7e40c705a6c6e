package io.fleetscope.flink.bench;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.testing.Fleet;
import org.apache.avro.specific.SpecificRecord;

/**
 * Deterministic fleet data for benchmarks: {@code nodes} nodes with 8 GPUs and 8 IB ports each,
 * one sample per device per second, in time order. Record {@code i} is a pure function of i.
 */
public final class FleetGenerator implements java.io.Serializable {
  public static final int DEVICES = 8;
  private final int nodes;

  public FleetGenerator(int nodes) {
    this.nodes = nodes;
  }

  /** Records per simulated second: nodes x (8 GPU + 8 port samples). */
  public long perSecond() {
    return (long) nodes * DEVICES * 2;
  }

  /**
   * Index i -> (second, node, device) such that each half of the index range (one source split
   * each at parallelism 2) covers half of the nodes in time order, like two Kafka partitions.
   */
  private long[] place(long i, long perTopic) {
    long half = Math.max(1, perTopic / 2);
    long group = Math.min(1, i / half);
    long j = i - group * half;
    int perGroup = Math.max(1, nodes / 2);
    long sec = j / ((long) perGroup * DEVICES);
    int rest = (int) (j % ((long) perGroup * DEVICES));
    return new long[] {sec, group * perGroup + rest / DEVICES, rest % DEVICES};
  }

  private long perTopic = Long.MAX_VALUE;

  public FleetGenerator perTopic(long n) {
    this.perTopic = n;
    return this;
  }

  public SpecificRecord gpu(long i) {
    long[] p = place(i, perTopic);
    long sec = p[0];
    int node = (int) p[1];
    int gpu = (int) p[2];
    return GpuSample.newBuilder().setTs(Fleet.t(sec)).setCluster("c1").setNode("node-" + node).setAgentSeq(sec)
        .setGpu(gpu).setModel("NVIDIA H100 80GB HBM3").setTempC(60.0 + (i % 7)).setPowerW(600.0).setPowerLimitW(700.0)
        .setUtilPct(95.0).setEccSbeTotal(sec / 600).setEccDbeTotal(0L).setRetiredPagesSbe(0L).setRetiredPagesDbe(0L)
        .setRowRemapPending(false).setRowRemapFailure(false).build();
  }

  public SpecificRecord ib(long i) {
    long[] p = place(i, perTopic);
    long sec = p[0];
    int node = (int) p[1];
    int port = (int) p[2];
    long bytes = sec * 25_000_000_000L;
    return IbPortSample.newBuilder().setTs(Fleet.t(sec)).setCluster("c1").setNode("node-" + node).setAgentSeq(sec)
        .setDevice("mlx5_" + port).setPort(1).setRail(port).setLinkLayer("InfiniBand").setState("ACTIVE")
        .setPhysState("LinkUp").setRateGbps(400.0).setXmitBytes(bytes).setRcvBytes(bytes).setXmitPkts(sec * 6_000_000L)
        .setRcvPkts(sec * 6_000_000L).setSymbolErrors(0L).setLinkDowned(0L).build();
  }
}
