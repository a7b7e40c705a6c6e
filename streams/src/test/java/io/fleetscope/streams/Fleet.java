package io.fleetscope.streams;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.contract.Fingerprint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small test fleet: cluster "c1", rack r07 (4 nodes x 8 H100, 8 HCAs on rails 0-7) cooled by CDU
 * cdu-3 loop-a, and rack r08 (1 node) on cdu-4 loop-b.
 */
final class Fleet {
  static final String CLUSTER = "c1";
  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private Fleet() {}

  static String node(int rack, int n) {
    return String.format("gpu-r%02d-n%02d", rack, n);
  }

  static List<InventoryRecord> inventory() {
    List<InventoryRecord> out = new ArrayList<>();
    for (int n = 1; n <= 4; n++) {
      out.add(node(node(7, n), "r07", "cdu-3", "loop-a"));
    }
    out.add(node(node(8, 1), "r08", "cdu-4", "loop-b"));
    out.add(cdu("cdu-3", "loop-a", List.of("r07")));
    out.add(cdu("cdu-4", "loop-b", List.of("r08")));
    return out;
  }

  static InventoryRecord node(String name, String rack, String cdu, String loop) {
    List<GpuInfo> gpus = new ArrayList<>();
    List<HcaInfo> hcas = new ArrayList<>();
    for (int g = 0; g < 8; g++) {
      gpus.add(GpuInfo.newBuilder().setIndex(g).setModel("NVIDIA H100 80GB HBM3").setSlowdownTempC(87.0).build());
      hcas.add(HcaInfo.newBuilder().setDevice("mlx5_" + g).setPort(1).setRail(g).setLinkLayer("InfiniBand").setRateGbps(400.0).build());
    }
    return InventoryRecord.newBuilder().setTs(T0.toEpochMilli()).setCluster(CLUSTER).setKind("node").setId(name)
        .setRack(rack).setCdu(cdu).setCduLoop(loop).setGpus(gpus).setHcas(hcas).build();
  }

  static InventoryRecord cdu(String id, String loop, List<String> racks) {
    return InventoryRecord.newBuilder().setTs(T0.toEpochMilli()).setCluster(CLUSTER).setKind("cdu").setId(id)
        .setCduLoop(loop).setRacks(racks).build();
  }

  /** Labels from name/value pairs; cluster c1 is added. */
  static Map<String, String> labels(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("cluster", CLUSTER);
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  static Anomaly firing(Instant startsAt, Map<String, String> labels) {
    return Anomaly.newBuilder().setTs(startsAt.toEpochMilli()).setFingerprint(Fingerprint.of(labels)).setStatus("firing")
        .setLabels(labels).setAnnotations(Map.of("summary", labels.get("alertname") + " test")).setStartsAt(startsAt.toEpochMilli())
        .setSource("test").build();
  }

  static Anomaly resolved(Anomaly firing, Instant endsAt) {
    return Anomaly.newBuilder(firing).setTs(endsAt.toEpochMilli()).setStatus("resolved").setEndsAt(endsAt.toEpochMilli()).build();
  }

  static Anomaly coolantFlowLow(Instant t) {
    return firing(t, labels("alertname", "CoolantFlowLow", "severity", "critical", "device", "cdu-3", "loop", "loop-a"));
  }

  static Anomaly gpuHot(Instant t, String node, int gpu) {
    return firing(t, labels("alertname", "GpuThermalThrottleRisk", "severity", "warning", "node", node, "gpu", String.valueOf(gpu)));
  }

  /** 32 GpuThermalThrottleRisk anomalies: 4 nodes x 8 GPUs of rack r07. */
  static List<Anomaly> rack07Hot(Instant t) {
    List<Anomaly> out = new ArrayList<>();
    for (int n = 1; n <= 4; n++) {
      for (int g = 0; g < 8; g++) {
        out.add(gpuHot(t, node(7, n), g));
      }
    }
    return out;
  }
}
