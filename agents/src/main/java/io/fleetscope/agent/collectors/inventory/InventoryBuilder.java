package io.fleetscope.agent.collectors.inventory;

import io.fleetscope.agent.collectors.ib.IbValues;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.IbPortSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the node's {@link InventoryRecord} from GPU infos, IB port samples and the static facts of the config. Pure. */
public final class InventoryBuilder {
  private InventoryBuilder() {}

  /** Static facts from the {@code inventory} section. */
  public record Facts(String rack, String row, List<String> pduOutlets, String cdu, String cduLoop, String rackCooling,
                      Double rackCoolingCapacityKw, Map<String, String> attributes) {}

  public static HcaInfo hca(IbPortSample p, String nodeGuid) {
    return HcaInfo.newBuilder()
        .setDevice(p.getDevice()).setPort(p.getPort()).setRail(p.getRail())
        .setLinkLayer(p.getLinkLayer()).setRateGbps(p.getRateGbps()).setNodeGuid(nodeGuid)
        .build();
  }

  public static InventoryRecord build(long ts, String cluster, String node, List<GpuInfo> gpus, List<HcaInfo> hcas, Facts f) {
    return InventoryRecord.newBuilder()
        .setTs(ts).setCluster(cluster).setKind("node").setId(node).setAgentSeq(0L)
        .setRack(f.rack()).setRow(f.row())
        .setGpus(new ArrayList<>(gpus))
        .setHcas(new ArrayList<>(hcas))
        .setPduOutlets(new ArrayList<>(f.pduOutlets()))
        .setCdu(f.cdu()).setCduLoop(f.cduLoop())
        .setRackCooling(f.rackCooling()).setRackCoolingCapacityKw(f.rackCoolingCapacityKw())
        .setRacks(new ArrayList<>())
        .setAttributes(new LinkedHashMap<>(f.attributes()))
        .build();
  }

  /** Whether two records describe the same topology (ts and agent_seq ignored). */
  public static boolean sameTopology(InventoryRecord a, InventoryRecord b) {
    if (a == null || b == null) return false;
    InventoryRecord x = InventoryRecord.newBuilder(a).setTs(0).setAgentSeq(0L).build();
    InventoryRecord y = InventoryRecord.newBuilder(b).setTs(0).setAgentSeq(0L).build();
    return x.equals(y);
  }

  static Integer rail(String device, Map<String, Integer> rails) {
    return IbValues.rail(device, rails);
  }
}
