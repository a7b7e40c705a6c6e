package io.fleetscope.flink.ecc;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.testing.Fleet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GpuHardFaultsTest {
  private static final EccConfig CFG = AnalyticsConfig.fromYaml("""
      ecc:
        dbe_quiet_ms: 600000
        xid_quiet_ms: 300000
      """).section("ecc", EccConfig.class);
  private static final XidCatalog XIDS = XidCatalog.load();
  private static final AnomalyFactory F = new AnomalyFactory("ecc");
  private static final GpuEccAnalyzer.Where W = new GpuEccAnalyzer.Where("c1", "n1", 3, "r7");

  private final GpuHardFaults g = new GpuHardFaults();
  private final List<Anomaly> out = new ArrayList<>();

  private static GpuSample dbe(long ts, long dbe) {
    return Fleet.gpu("n1", 3, ts, ts).setEccDbeTotal(dbe).build();
  }

  private static String brief(Anomaly a) {
    return a.getLabels().get("alertname") + " " + a.getStatus() + " " + a.getLabels().get("severity") + " ts=" + a.getTs();
  }

  @Test
  void anUncorrectableErrorFiresOnItsSampleAndResolvesAfterTheQuietPeriod() {
    assertThat(g.onSample(dbe(t(0), 0), W, CFG, F, out)).isEqualTo(Long.MAX_VALUE);
    assertThat(out).isEmpty();
    long wake = g.onSample(dbe(t(1), 1), W, CFG, F, out);
    assertThat(out).extracting(GpuHardFaultsTest::brief).containsExactly("GpuEccUncorrectable firing critical ts=" + t(1));
    assertThat(out.get(0).getLabels()).containsEntry("node", "n1").containsEntry("gpu", "3").containsEntry("rack", "r7");
    assertThat(out.get(0).getAnnotations().get("description")).startsWith("ecc_dbe_total/retired_pages_dbe rose by 1 on n1 GPU 3");
    assertThat(wake).isEqualTo(t(601));
    out.clear();
    g.onSample(dbe(t(2), 1), W, CFG, F, out); // the same count: nothing new
    g.onWake(t(600), W, CFG, XIDS, F, out);
    assertThat(out).isEmpty();
    g.onWake(t(601), W, CFG, XIDS, F, out);
    assertThat(out).extracting(GpuHardFaultsTest::brief).containsExactly("GpuEccUncorrectable resolved critical ts=" + t(601));
  }

  @Test
  void aSampleAfterTheQuietPeriodResolvesAtTheSameTimeAsTheTimerWould() {
    g.onSample(dbe(t(1), 1), W, CFG, F, out);
    out.clear();
    g.onSample(dbe(t(700), 1), W, CFG, F, out);
    assertThat(out).extracting(GpuHardFaultsTest::brief).containsExactly("GpuEccUncorrectable resolved critical ts=" + t(601));
    out.clear();
    g.onWake(t(601), W, CFG, XIDS, F, out);
    assertThat(out).isEmpty();
  }

  @Test
  void aDriverReloadResettingTheCounterIsNoError() {
    g.onSample(dbe(t(0), 5), W, CFG, F, out); // errors since boot: fires once
    g.onWake(t(600), W, CFG, XIDS, F, out);
    out.clear();
    g.onSample(dbe(t(700), 0), W, CFG, F, out); // reload: counter back to 0
    g.onSample(dbe(t(701), 0), W, CFG, F, out);
    assertThat(out).isEmpty();
    g.onSample(dbe(t(702), 1), W, CFG, F, out); // a new error after the reset
    assertThat(out).extracting(GpuHardFaultsTest::brief).containsExactly("GpuEccUncorrectable firing critical ts=" + t(702));
  }

  @Test
  void anOlderSampleArrivingLateMovesNothingBackwards() {
    g.onSample(Fleet.gpu("n1", 3, t(10), 10).setRowRemapFailure(true).build(), W, CFG, F, out);
    assertThat(out).extracting(GpuHardFaultsTest::brief).containsExactly("GpuRowRemapFailure firing critical ts=" + t(10));
    out.clear();
    g.onSample(Fleet.gpu("n1", 3, t(9), 9).build(), W, CFG, F, out); // late, from before the failure
    g.onSample(dbe(t(8), 0), W, CFG, F, out);
    assertThat(out).isEmpty();
    g.onSample(dbe(t(11), 1), W, CFG, F, out);
    assertThat(out).extracting(GpuHardFaultsTest::brief).containsExactly(
        "GpuEccUncorrectable firing critical ts=" + t(11), "GpuRowRemapFailure resolved critical ts=" + t(11));
  }

  @Test
  void rowRemapStatesFollowTheNewestSample() {
    g.onSample(Fleet.gpu("n1", 3, t(0), 0).setRowRemapPending(true).build(), W, CFG, F, out);
    g.onSample(Fleet.gpu("n1", 3, t(1), 1).setRowRemapPending(true).setRowRemapFailure(true).build(), W, CFG, F, out);
    assertThat(out).extracting(a -> brief(a) + " " + a.getLabels().get("state")).containsExactly(
        "GpuRowRemapFailure firing warning ts=" + t(0) + " pending",
        "GpuRowRemapFailure firing critical ts=" + t(1) + " failure",
        "GpuRowRemapFailure resolved warning ts=" + t(1) + " pending");
  }

  @Test
  void anXidFiresOncePerCodeAndResolvesAfterItsQuietPeriod() {
    long w1 = g.onXid(Fleet.xid("n1", 3, 79, t(5), 1), W, CFG, XIDS, F, out);
    g.onXid(Fleet.xid("n1", 3, 79, t(5), 1), W, CFG, XIDS, F, out); // delivered twice
    long w2 = g.onXid(Fleet.xid("n1", 3, 79, t(65), 2), W, CFG, XIDS, F, out); // the same code again while firing
    assertThat(out).extracting(GpuHardFaultsTest::brief).containsExactly("GpuXid firing critical ts=" + t(5));
    assertThat(out.get(0).getLabels()).containsEntry("xid", "79");
    assertThat(out.get(0).getAnnotations().get("summary")).contains("GPU has fallen off the bus");
    assertThat(w1).isEqualTo(t(305));
    assertThat(w2).isEqualTo(t(365));
    out.clear();
    assertThat(g.onWake(t(305), W, CFG, XIDS, F, out)).isEqualTo(t(365));
    assertThat(out).isEmpty();
    g.onWake(t(365), W, CFG, XIDS, F, out);
    assertThat(out).extracting(GpuHardFaultsTest::brief).containsExactly("GpuXid resolved critical ts=" + t(365));
  }

  @Test
  void firesWhatTheWindowedAnalyzerDidWithTheSameLabelsAndTexts() {
    // a DBE, a pending remap, then a failed one, and an XID: once through each
    List<org.apache.avro.specific.SpecificRecord> records = new ArrayList<>();
    for (int s = 0; s < 120; s++) {
      records.add(Fleet.gpu("n1", 3, t(s), s).setEccDbeTotal(s >= 30 ? 1L : 0L)
          .setRowRemapPending(s >= 30 && s < 60).setRowRemapFailure(s >= 60).build());
    }
    records.add(Fleet.xid("n1", 3, 79, t(45) + 500, 1000));
    records.sort(java.util.Comparator.comparingLong(io.fleetscope.flink.io.Records::ts));
    List<Anomaly> windowed = new ArrayList<>();
    GpuEccAnalyzer a = new GpuEccAnalyzer();
    for (int tick = 0; tick < 12; tick++) {
      long end = t(10L * (tick + 1));
      List<org.apache.avro.specific.SpecificRecord> slice = records.stream()
          .filter(r -> io.fleetscope.flink.io.Records.ts(r) >= end - 10_000 && io.fleetscope.flink.io.Records.ts(r) < end).toList();
      a.tick(end, slice, W, CFG10, XIDS, F, windowed);
    }
    for (org.apache.avro.specific.SpecificRecord r : records) {
      if (r instanceof GpuSample s) {
        g.onSample(s, W, CFG10, F, out);
      } else {
        g.onXid((io.fleetscope.avro.GpuXid) r, W, CFG10, XIDS, F, out);
      }
    }
    java.util.function.Function<Anomaly, String> text = x -> new java.util.TreeMap<>(x.getLabels()) + " "
        + x.getAnnotations() + " " + x.getFingerprint() + " " + x.getValue();
    List<String> expected = windowed.stream().filter(x -> x.getStatus().equals("firing"))
        .filter(x -> GpuHardFaults.ALERTS.contains(x.getLabels().get("alertname"))).map(text).sorted().toList();
    assertThat(expected).hasSize(4); // uncorrectable, pending, failure, XID 79
    assertThat(out.stream().filter(x -> x.getStatus().equals("firing")).map(text).sorted().toList()).isEqualTo(expected);
  }

  private static final EccConfig CFG10 = AnalyticsConfig.fromYaml("""
      ecc:
        tick_ms: 10000
        short_window_ms: 600000
        long_window_ms: 3600000
        dbe_quiet_ms: 600000
        xid_quiet_ms: 300000
      """).section("ecc", EccConfig.class);
}
