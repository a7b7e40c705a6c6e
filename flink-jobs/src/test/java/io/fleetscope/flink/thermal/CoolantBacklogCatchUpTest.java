package io.fleetscope.flink.thermal;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.CoolantReading;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.HardwareCatalog;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.io.WallClock;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/**
 * A CDU whose facility agent spooled through a broker outage sends its readings when the broker is
 * back, behind the watermark the other devices moved on. The loop's backlog, with a flow loss in it,
 * gives the same anomalies with the same event times as the same readings in time.
 */
class CoolantBacklogCatchUpTest {
  private static final WallClock LIVE = WallClock.fixed(t(130));

  private static CoolantReading reading(long s) {
    double flow = s >= 50 && s < 70 ? 10.0 : 120.0; // the pump fails for 20 s (coolant_flow_min_lpm 30)
    return Samples.coolant(s).setFlowLpm(flow).build();
  }

  private static KeyedBroadcastOperatorTestHarness<String, CoolantReading, SpecificRecord, Anomaly> harness() throws Exception {
    AnalyticsConfig cfg = AnalyticsConfig.defaults();
    CoolantAlertFunction fn = new CoolantAlertFunction(ThermalRiskAnalytic.facility(cfg, HardwareCatalog.load()), cfg.pipeline(),
        LIVE, FacilityAnalytic.NAME);
    return ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(fn, CoolantAlertFunction::keyOf, Types.STRING,
        Topology.INVENTORY, Topology.JOBS);
  }

  private static void watermark(KeyedBroadcastOperatorTestHarness<String, CoolantReading, SpecificRecord, Anomaly> h, long ms)
      throws Exception {
    h.processBroadcastWatermark(new Watermark(ms));
    h.processWatermark(new Watermark(ms));
  }

  private static void send(KeyedBroadcastOperatorTestHarness<String, CoolantReading, SpecificRecord, Anomaly> h, long from,
      long to) throws Exception {
    for (long s = from; s < to; s += 5) {
      h.processElement(reading(s), t(s));
    }
  }

  private static List<String> anomalies(KeyedBroadcastOperatorTestHarness<String, CoolantReading, SpecificRecord, Anomaly> h) {
    var a = h.getSideOutput(TickedKeyedFunction.ANOMALIES);
    return a == null ? List.of() : a.stream().map(StreamRecord::getValue)
        .map(x -> x.getLabels().get("alertname") + " " + x.getStatus() + " ts=" + (x.getTs() - t(0)) / 1000).toList();
  }

  @Test
  void aLoopsBacklogWithAFlowLossGivesTheAnomalyWithItsEventTime() throws Exception {
    List<String> inTime;
    try (var h = harness()) {
      for (long s = 0; s < 100; s += 5) {
        send(h, s, s + 5);
        watermark(h, t(s) - 1);
      }
      watermark(h, t(160));
      inTime = anomalies(h);
    }
    assertThat(inTime).as("the same readings in time").startsWith("CoolantFlowLow firing ts=50");

    try (var h = harness()) {
      send(h, 0, 30);
      watermark(h, t(25));
      watermark(h, t(100)); // the broker is back: the other devices' records first, the watermark jumps
      send(h, 30, 100); // then this CDU's agent sends its spool
      assertThat(h.getSideOutput(TickedKeyedFunction.LATE)).as("nothing of the backlog is late").isNull();
      watermark(h, t(101));
      watermark(h, t(110));
      watermark(h, t(120)); // catch_up_grace_ms after its last backlog record: the rest is evaluated
      watermark(h, t(160));
      assertThat(anomalies(h)).isEqualTo(inTime);
      assertThat(h.getSideOutput(TickedKeyedFunction.ANOMALIES)).first().extracting(StreamRecord::getTimestamp)
          .as("emitted at its own tick's time").isEqualTo(t(60) - 1);
    }
  }

  @Test
  void withCatchUpOffTheBacklogIsLateAsBefore() throws Exception {
    AnalyticsConfig cfg = AnalyticsConfig.defaults().with("pipeline", "catch_up_ms", 0);
    CoolantAlertFunction fn = new CoolantAlertFunction(ThermalRiskAnalytic.facility(cfg, HardwareCatalog.load()), cfg.pipeline(),
        LIVE, FacilityAnalytic.NAME);
    try (var h = ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(fn, CoolantAlertFunction::keyOf, Types.STRING,
        Topology.INVENTORY, Topology.JOBS)) {
      send(h, 0, 30);
      watermark(h, t(100));
      send(h, 30, 100);
      watermark(h, t(160));
      assertThat(anomalies(h)).isEmpty();
      assertThat(h.getSideOutput(TickedKeyedFunction.LATE)).hasSize(14);
    }
  }
}
