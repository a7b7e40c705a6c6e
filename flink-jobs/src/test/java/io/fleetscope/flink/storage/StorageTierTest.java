package io.fleetscope.flink.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.StorageSample;
import io.fleetscope.flink.core.AlertChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NvmeHealth and TierPeers on sample sequences with fixed instants. */
class StorageTierTest {
  private static final long T0 = 1_767_225_600_000L;
  private static final StorageTierSettings CFG = StorageTierSettings.defaults();

  private static long t(int seconds) {
    return T0 + seconds * 1000L;
  }

  private static StorageSample nvme(int s, long mediaErrors, int cw, int used) {
    return StorageSample.newBuilder().setTs(t(s)).setCluster("c1").setNode("n1").setAgentSeq(s).setTier("local-nvme")
        .setDevice("nvme0").setMediaErrors(mediaErrors).setCriticalWarning(cw).setPercentageUsed(used).build();
  }

  /** A Lustre client's cumulative counters: {@code ops} writes in total, {@code latencyMs} each so far on average. */
  private static StorageSample pfs(String node, int s, long ops, long timeMs) {
    return StorageSample.newBuilder().setTs(t(s)).setCluster("c1").setNode(node).setAgentSeq(s).setTier("lustre")
        .setDevice("fs").setWriteOps(ops).setWriteTimeMs(timeMs).setWriteBytes(ops * 1_048_576L).build();
  }

  private static List<String> names(List<AlertChange> l) {
    return l.stream().map(c -> c.alertname() + "/" + c.severity() + "/" + (c.firing() ? "firing" : "resolved")
        + (c.labels().containsKey("node") ? "/" + c.labels().get("node") : "")).toList();
  }

  @Test
  void mediaErrorsRisingFireAndResolveAfterTheWindow() {
    NvmeHealth h = new NvmeHealth();
    assertThat(h.onSample(nvme(0, 3, 0, 10), CFG)).isEmpty(); // first sample: a baseline, old errors do not count
    assertThat(h.onSample(nvme(60, 3, 0, 10), CFG)).isEmpty();
    List<AlertChange> rise = h.onSample(nvme(120, 5, 0, 10), CFG);
    assertThat(names(rise)).containsExactly("NvmeMediaErrors/warning/firing/n1");
    assertThat(rise.get(0).value()).isEqualTo(2.0);
    assertThat(rise.get(0).labels()).isEqualTo(Map.of("cluster", "c1", "node", "n1", "tier", "local-nvme", "device", "nvme0"));
    assertThat(h.onSample(nvme(3000, 5, 0, 10), CFG)).isEmpty();
    assertThat(names(h.onSample(nvme(120 + 3600, 5, 0, 10), CFG))).containsExactly("NvmeMediaErrors/warning/resolved/n1");
  }

  @Test
  void counterGoingDownIsANewBaselineNotAnAlert() {
    NvmeHealth h = new NvmeHealth();
    h.onSample(nvme(0, 40, 0, 10), CFG);
    assertThat(h.onSample(nvme(60, 0, 0, 10), CFG)).isEmpty();
    assertThat(h.onSample(nvme(120, 0, 0, 10), CFG)).isEmpty();
  }

  @Test
  void criticalWarningAndWornEnduranceDegradeTheLocalTier() {
    NvmeHealth h = new NvmeHealth();
    assertThat(h.onSample(nvme(0, 0, 0, 89), CFG)).isEmpty();
    assertThat(names(h.onSample(nvme(60, 0, 0, 90), CFG))).containsExactly("StorageTierDegraded/warning/firing/n1");
    List<AlertChange> cw = h.onSample(nvme(120, 0, 0x04, 90), CFG);
    assertThat(names(cw)).containsExactly("StorageTierDegraded/critical/firing/n1");
    assertThat(cw.get(0).description()).contains("0x4 (reliability degraded)");
    assertThat(names(h.onSample(nvme(180, 0, 0, 90), CFG))).containsExactly("StorageTierDegraded/critical/resolved/n1");
  }

  /** Four clients writing 10 ms per write; from {@code slowFrom} on, {@code slow} takes {@code slowMs} per write. */
  private static List<List<AlertChange>> run(TierPeers p, List<String> slow, int slowFrom, int slowUntil, int until, long slowMs) {
    List<List<AlertChange>> out = new ArrayList<>();
    String[] nodes = {"n1", "n2", "n3", "n4"};
    long[] ops = new long[4];
    long[] time = new long[4];
    for (int s = 0; s <= until; s += 10) {
      for (int i = 0; i < 4; i++) {
        long perWrite = s > slowFrom && s <= slowUntil && slow.contains(nodes[i]) ? slowMs : 10;
        ops[i] += 100;
        time[i] += 100 * perWrite;
        p.onSample(pfs(nodes[i], s, ops[i], time[i]), CFG);
      }
      out.add(p.evaluate(t(s), CFG));
    }
    return out;
  }

  @Test
  void oneClientMuchSlowerThanItsPeersIsDegradedAlone() {
    TierPeers p = new TierPeers();
    List<List<AlertChange>> ticks = run(p, List.of("n3"), 100, 300, 300, 80);
    assertThat(ticks.subList(0, 11)).allMatch(List::isEmpty);
    assertThat(names(ticks.get(11))).containsExactly("StorageTierDegraded/warning/firing/n3");
    assertThat(ticks.get(11).get(0).labels()).isEqualTo(Map.of("cluster", "c1", "tier", "lustre", "node", "n3", "device", "fs"));
    assertThat(p.degraded()).isFalse();
    assertThat(p.median()).isEqualTo(10.0);
  }

  @Test
  void theWholeTierSlowIsOneTierWideAlertAndResolvesAfterTheHold() {
    TierPeers p = new TierPeers();
    List<List<AlertChange>> ticks = run(p, List.of("n1", "n2", "n3", "n4"), 100, 200, 300, 150);
    assertThat(names(ticks.get(11))).containsExactly("StorageTierDegraded/warning/firing");
    assertThat(ticks.get(11).get(0).labels()).isEqualTo(Map.of("cluster", "c1", "tier", "lustre"));
    assertThat(ticks.stream().flatMap(List::stream).filter(c -> c.labels().containsKey("node"))).isEmpty();
    // back to 10 ms per write from 210 s: resolved once clear for hold_s (30 s)
    assertThat(ticks.subList(12, 24)).allMatch(List::isEmpty);
    assertThat(names(ticks.get(24))).containsExactly("StorageTierDegraded/warning/resolved");
    assertThat(p.degraded()).isFalse();
    assertThat(p.median()).isEqualTo(10.0);
  }

  @Test
  void tooFewWritesOrTooFewPeersDecideNothing() {
    TierPeers p = new TierPeers();
    p.onSample(pfs("n1", 0, 0, 0), CFG);
    p.onSample(pfs("n2", 0, 0, 0), CFG);
    p.onSample(pfs("n1", 10, 100, 100_000), CFG); // 1 s per write, but only two clients
    p.onSample(pfs("n2", 10, 100, 1_000), CFG);
    assertThat(names(p.evaluate(t(10), CFG))).containsExactly("StorageTierDegraded/warning/firing"); // median 505 ms
    TierPeers q = new TierPeers();
    q.onSample(pfs("n1", 0, 0, 0), CFG);
    q.onSample(pfs("n1", 10, 4, 4_000), CFG); // 4 writes < min_write_ops
    assertThat(q.evaluate(t(10), CFG)).isEmpty();
    assertThat(q.median()).isNaN();
  }

  @Test
  void badSettingsAreRefusedWithTheKey() {
    assertThatThrownBy(() -> new StorageTierSettings(90, 3600, 1, 120, 1, 5, 4.0, 20, 100, 30))
        .hasMessage("storage: min_peers must be >= 2, got 1");
    assertThatThrownBy(() -> new StorageTierSettings(90, 3600, 1, 120, 3, 5, 1.0, 20, 100, 30))
        .hasMessage("storage: peer_latency_factor must be > 1, got 1.0");
  }
}
