package io.fleetscope.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.fleet.StaleSource;
import io.fleetscope.flink.peer.PeerGroupDetector;
import io.fleetscope.flink.rail.PortAnalyzer;
import io.fleetscope.flink.rail.RailConfig;
import io.fleetscope.flink.thermal.CoolantLoopMonitor;
import io.fleetscope.flink.thermal.RackPowerMonitor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keyed state written before the threshold alerts had hysteresis restores (Java serialization, as
 * {@code JavaSerializableTypeInfo} writes it into a savepoint), and every alert that fired then
 * fires on. {@code state/before-hysteresis.b64} holds, written by the classes of the version before
 * (commit 6dbdd36) in this order: a CoolantLoopMonitor with CoolantFlowLow and CoolantSupplyHot
 * firing (flow 5 l/min, supply 45 C at 1 s), a RackPowerMonitor firing (40 kW of 30), a
 * PeerGroupDetector with GPU n1/3 firing on temp_c, a StaleSource stale (last record at 0, watermark
 * 200 s), a PortAnalyzer with IbSymbolErrors firing (100 symbol errors per second up to 9 s).
 */
class StateBeforeHysteresisTest {
  private static final Map<String, String> LABELS = Map.of("cluster", "c1", "device", "cdu", "loop", "a",
      "node", "n1", "stream", "gpu", "rack", "r1");

  @Test
  void firingAlertsOfTheEarlierVersionFireOnAfterARestore() throws Exception {
    byte[] bytes;
    try (InputStream in = getClass().getResourceAsStream("/state/before-hysteresis.b64")) {
      bytes = Base64.getMimeDecoder().decode(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
    }
    try (ObjectInputStream o = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      CoolantLoopMonitor coolant = (CoolantLoopMonitor) o.readObject();
      RackPowerMonitor rack = (RackPowerMonitor) o.readObject();
      PeerGroupDetector peer = (PeerGroupDetector) o.readObject();
      StaleSource stale = (StaleSource) o.readObject();
      PortAnalyzer port = (PortAnalyzer) o.readObject();

      assertThat(coolant.anyFiring()).isTrue();
      assertThat(rack.firing()).isTrue();
      assertThat(peer.firingCount()).isEqualTo(1);
      assertThat(stale.stale()).isTrue();

      List<AlertChange> back = coolant.onReading(CoolantReading.newBuilder().setTs(100_000).setCluster("c1")
          .setDevice("cdu").setLoop("a").setAgentSeq(2).setFlowLpm(120.0).setSupplyTempC(30.0).build(),
          coolant.limits(Map.of()), LABELS);
      assertThat(back).as("the restored alerts resolve, not fire again")
          .extracting(c -> c.alertname() + " " + c.firing())
          .containsExactlyInAnyOrder("CoolantFlowLow false", "CoolantSupplyHot false");

      RailConfig rail = AnalyticsConfig.defaults().section("rail", RailConfig.class);
      List<Anomaly> out = new ArrayList<>();
      List<IbPortSample> clean = new ArrayList<>();
      for (int i = 10; i < 20; i++) {
        clean.add(IbPortSample.newBuilder().setTs(1000L * i).setCluster("c1").setNode("n1").setAgentSeq(i)
            .setDevice("mlx5_0").setPort(1).setRail(0).setLinkLayer("InfiniBand").setState("ACTIVE")
            .setPhysState("LinkUp").setRateGbps(400.0).setXmitBytes(0L).setRcvBytes(0L).setSymbolErrors(900L)
            .setLinkDowned(0L).build());
      }
      port.window(clean, 20_000, 400, "r1", rail, new AnomalyFactory("rail"), out);
      assertThat(out).as("IbSymbolErrors fires on, in its resolve hold: no second firing, no early resolve").isEmpty();
    }
  }
}
