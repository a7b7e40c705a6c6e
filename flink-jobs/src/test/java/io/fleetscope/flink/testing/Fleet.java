package io.fleetscope.flink.testing;

import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builders of raw records at fixed instants for scenario tests (no now()). */
public final class Fleet {
  /** 2026-01-01T00:00:00Z. */
  public static final long T0 = 1767225600000L;

  private Fleet() {}

  public static long t(long seconds) {
    return T0 + seconds * 1000;
  }

  public static IbPortSample.Builder ib(String node, int rail, long ts, long seq) {
    return IbPortSample.newBuilder().setTs(ts).setCluster("c1").setNode(node).setAgentSeq(seq)
        .setDevice("mlx5_" + rail).setPort(1).setRail(rail).setLinkLayer("InfiniBand")
        .setState("ACTIVE").setPhysState("LinkUp").setRateGbps(400.0)
        .setXmitBytes(0L).setRcvBytes(0L).setSymbolErrors(0L).setLinkDowned(0L);
  }

  public static GpuSample.Builder gpu(String node, int gpu, long ts, long seq) {
    return GpuSample.newBuilder().setTs(ts).setCluster("c1").setNode(node).setAgentSeq(seq).setGpu(gpu)
        .setUuid("GPU-" + node + "-" + gpu).setModel("NVIDIA H100 80GB HBM3").setTempC(55.0).setPowerW(500.0)
        .setEccSbeTotal(0L).setEccDbeTotal(0L).setRetiredPagesSbe(0L).setRetiredPagesDbe(0L)
        .setRowRemapPending(false).setRowRemapFailure(false);
  }

  public static GpuXid xid(String node, int gpu, int xid, long ts, long seq) {
    return GpuXid.newBuilder().setTs(ts).setCluster("c1").setNode(node).setAgentSeq(seq).setGpu(gpu).setXid(xid)
        .setMessage("test").build();
  }

  /** A node with {@code gpus} H100s and {@code rails} HCAs mlx5_0.. on rails 0... */
  public static InventoryRecord node(String node, String rack, int gpus, int rails, long ts) {
    List<GpuInfo> g = new ArrayList<>();
    for (int i = 0; i < gpus; i++) {
      g.add(GpuInfo.newBuilder().setIndex(i).setModel("NVIDIA H100 80GB HBM3").build());
    }
    List<HcaInfo> h = new ArrayList<>();
    for (int r = 0; r < rails; r++) {
      h.add(HcaInfo.newBuilder().setDevice("mlx5_" + r).setPort(1).setRail(r).setLinkLayer("InfiniBand")
          .setRateGbps(400.0).build());
    }
    return InventoryRecord.newBuilder().setTs(ts).setCluster("c1").setKind("node").setId(node).setRack(rack)
        .setGpus(g).setHcas(h).setPduOutlets(List.of()).setRacks(List.of()).setAttributes(Map.of()).build();
  }
}
