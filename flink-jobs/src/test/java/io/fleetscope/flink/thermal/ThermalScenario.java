package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.testing.Fleet.t;

import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.PduReading;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * A small liquid-cooled site with a known right answer. Rack r1 (direct liquid, 40 kW, CDU cdu-1
 * loop-a) holds n1..n4, rack r2 (rear door, 30 kW, CDU cdu-2 loop-b) holds n5; 8 H100s per node
 * with the slowdown temperature the driver reports (87 C). Samples every 10 s for 20 minutes.
 */
final class ThermalScenario {
  static final int MINUTES = 20;

  /** Which faults to play. */
  record Faults(boolean ramp, boolean throttle, boolean hotCoolant, boolean rackOverload, boolean flowDrop,
      boolean leak) {
    static Faults none() {
      return new Faults(false, false, false, false, false, false);
    }
  }

  private ThermalScenario() {}

  static List<SpecificRecord> records(Faults f) {
    List<SpecificRecord> out = new ArrayList<>();
    out.add(rack("r1", "direct-liquid", 40.0, "cdu-1", "loop-a"));
    out.add(rack("r2", "rear-door", null, "cdu-2", "loop-b"));
    out.add(cdu("cdu-1", "r1", Map.of("flow_min_lpm", "50")));
    out.add(cdu("cdu-2", "r2", Map.of()));
    for (int n = 1; n <= 5; n++) {
      out.add(node("n" + n, n <= 4 ? "r1" : "r2"));
    }
    long seq = 0;
    for (int s = 0; s < MINUTES * 60; s += 10) {
      for (int n = 1; n <= 5; n++) {
        for (int g = 0; g < 8; g++) {
          double temp = 55 + ((n + g + s / 10) % 3);
          long bits = 0;
          if (f.ramp && n == 2 && g == 3 && s >= 600) {
            temp = Math.min(95, 56 + (s - 600) / 20.0); // +3 C per minute from 10 minutes in
          }
          if (f.throttle && n == 3 && g == 0 && s >= 300 && s < 600) {
            bits = ThrottleReasons.HW_THERMAL;
          }
          out.add(gpu("n" + n, g, s, seq++, temp, bits));
        }
      }
      // PDUs: r1 ~ 28 kW on pdu-1 (4 outlets, one per node); r2 ~ 6 kW on pdu-2
      for (int n = 1; n <= 4; n++) {
        double w = 7000;
        if (f.rackOverload && s >= 600 && s < 900) {
          w = 11000; // 44 kW > 40 kW
        }
        out.add(pdu("pdu-1", Integer.toString(n), s, seq++, w));
      }
      out.add(pdu("pdu-2", "1", s, seq++, 6000));
      double supplyB = f.hotCoolant && s >= 300 && s < 900 ? 42.0 : 32.0;
      double flowA = f.flowDrop && s >= 600 && s < 900 ? 35.0 : 120.0;
      boolean leak = f.leak && s >= 400 && s < 500;
      out.add(coolant("cdu-1", "loop-a", s, seq++, 30.0, flowA, leak));
      out.add(coolant("cdu-2", "loop-b", s, seq++, supplyB, 90.0, false));
    }
    return out;
  }

  static InventoryRecord rack(String id, String cooling, Double capacity, String cdu, String loop) {
    return InventoryRecord.newBuilder().setTs(t(-60)).setCluster("c1").setKind("rack").setId(id)
        .setRackCooling(cooling).setRackCoolingCapacityKw(capacity).setCdu(cdu).setCduLoop(loop)
        .setGpus(List.of()).setHcas(List.of()).setPduOutlets(List.of()).setRacks(List.of()).setAttributes(Map.of())
        .build();
  }

  static InventoryRecord cdu(String id, String rack, Map<String, String> attributes) {
    return InventoryRecord.newBuilder().setTs(t(-60)).setCluster("c1").setKind("cdu").setId(id)
        .setGpus(List.of()).setHcas(List.of()).setPduOutlets(List.of()).setRacks(List.of(rack))
        .setAttributes(attributes).build();
  }

  static InventoryRecord node(String node, String rack) {
    List<GpuInfo> g = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      g.add(GpuInfo.newBuilder().setIndex(i).setModel("NVIDIA H100 80GB HBM3").setSlowdownTempC(87.0)
          .setShutdownTempC(92.0).setMemMaxTempC(95.0).setTdpW(700.0).build());
    }
    String outlet = rack.equals("r1") ? "pdu-1/" + node.substring(1) : "pdu-2/1";
    return InventoryRecord.newBuilder().setTs(t(-60)).setCluster("c1").setKind("node").setId(node).setRack(rack)
        .setGpus(g).setHcas(List.of()).setPduOutlets(List.of(outlet)).setRacks(List.of()).setAttributes(Map.of())
        .build();
  }

  static GpuSample gpu(String node, int g, int s, long seq, double temp, long bits) {
    return GpuSample.newBuilder().setTs(t(s)).setCluster("c1").setNode(node).setAgentSeq(seq).setGpu(g)
        .setModel("NVIDIA H100 80GB HBM3").setTempC(temp).setMemTempC(60.0).setPowerW(500.0).setPowerLimitW(700.0)
        .setThrottleReasons(bits).build();
  }

  static PduReading pdu(String device, String outlet, int s, long seq, double watts) {
    return PduReading.newBuilder().setTs(t(s)).setCluster("c1").setDevice(device).setAgentSeq(seq)
        .setOutlet(outlet).setPowerW(watts).build();
  }

  static CoolantReading coolant(String device, String loop, int s, long seq, double supply, double flow, boolean leak) {
    return CoolantReading.newBuilder().setTs(t(s)).setCluster("c1").setDevice(device).setAgentSeq(seq).setLoop(loop)
        .setSupplyTempC(supply).setReturnTempC(supply + 8).setFlowLpm(flow).setLeakDetected(leak).build();
  }
}
