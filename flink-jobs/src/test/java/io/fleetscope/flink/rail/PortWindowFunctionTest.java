package io.fleetscope.flink.rail;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.NodeFunction;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** The port analytic in the IB node operator, in a harness: event-time ticks, lateness, topology lookups. */
class PortWindowFunctionTest {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();
  private final PortWindowFunction f = new PortWindowFunction(cfg.section("rail", RailConfig.class), "rail");

  private KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> harness() throws Exception {
    NodeFunction node = new NodeFunction("node-ib", cfg.pipeline(), Runs.CLOCK);
    node.add(f);
    return ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(node, NodeFunction::nodeKey, Types.STRING,
        Topology.INVENTORY, Topology.JOBS);
  }

  /** The port windows the operator emitted, in order. */
  private List<PortWindow> windows(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h) {
    var out = h.getSideOutput(f.output());
    return out == null ? List.of() : out.stream().map(StreamRecord::getValue).toList();
  }

  private static void watermark(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h, long t)
      throws Exception {
    h.processBroadcastWatermark(new org.apache.flink.streaming.api.watermark.Watermark(t));
    h.processWatermark(t);
  }

  @Test
  void aWindowIsEvaluatedOnlyWhenTheWatermarkPassesItInTimeOrder() throws Exception {
    try (var h = harness()) {
      h.processBroadcastElement(Fleet.node("n1", "r1", 4, 4, t(-10)), t(-10));
      // arrive out of order
      h.processElement(Fleet.ib("n1", 0, t(2), 2).setXmitBytes(2_000_000_000L).build(), t(2));
      h.processElement(Fleet.ib("n1", 0, t(0), 0).setXmitBytes(0L).build(), t(0));
      h.processElement(Fleet.ib("n1", 0, t(1), 1).setXmitBytes(1_000_000_000L).build(), t(1));
      assertThat(windows(h)).isEmpty();
      watermark(h, t(10) - 1);
      assertThat(windows(h)).singleElement().satisfies(w -> {
        assertThat(w.txBytes).isEqualTo(2_000_000_000L);
        assertThat(w.windowEnd).isEqualTo(t(10));
        assertThat(w.up).isTrue();
      });
    }
  }

  @Test
  void aRecordLaterThanTheAllowedLatenessIsCountedAndDeadLettered() throws Exception {
    try (var h = harness()) {
      h.processElement(Fleet.ib("n1", 0, t(1), 1).build(), t(1));
      watermark(h, t(30));
      h.processElement(Fleet.ib("n1", 0, t(3), 2).build(), t(3));
      var late = h.getSideOutput(TickedKeyedFunction.LATE);
      assertThat(late).singleElement().extracting(StreamRecord::getValue).satisfies(d -> {
        assertThat(d.getReason()).startsWith("late: ts=" + t(3));
        assertThat(d.getSourceTopic()).isEqualTo("fleet.ib.v1");
        assertThat(d.getPayloadJson()).contains("\"agent_seq\":2");
      });
      assertThat(h.numEventTimeTimers()).isZero();
    }
  }

  @Test
  void roceCongestionFiresWithinOneWindowAndResolvesAfterTheHold() throws Exception {
    try (var h = harness()) {
      long pfc = 0;
      for (int s = 0; s < 70; s++) {
        if (s > 0 && s < 20) {
          pfc += 5_000; // 5,000 pauses/s, limit 1,000/s
        }
        h.processElement(Fleet.ib("n1", 0, t(s), s).setLinkLayer("Ethernet").setPfcPauseRx(pfc).setPfcPauseTx(0L)
            .setEcnMarkedPkts(0L).setCnpSent(0L).setCnpHandled(0L).build(), t(s));
      }
      watermark(h, Long.MAX_VALUE);
      var anomalies = h.getSideOutput(TickedKeyedFunction.ANOMALIES).stream().map(StreamRecord::getValue).toList();
      assertThat(anomalies).extracting(a -> a.getLabels().get("alertname") + " " + a.getStatus() + " " + a.getTs())
          .as("clear from the window ending at 29 s; resolved once clear for 30 s (resolve_hold_ms)")
          .containsExactly("RoceCongestion firing " + t(9), "RoceCongestion resolved " + t(59));
      Anomaly firing = anomalies.get(0);
      assertThat(firing.getAnnotations().get("description")).contains("PFC pauses 5000/s (limit 1000)");
    }
  }

  @Test
  void a32BitCounterThatWrapsGivesTheTrueRate() throws Exception {
    long mod = 4L * 4294967296L;
    try (var h = harness()) {
      long v = mod - 3_000_000_000L;
      for (int s = 0; s < 11; s++) {
        h.processElement(Fleet.ib("n1", 0, t(s), s).setCounterWidthBits(32).setXmitBytes(v % mod).build(), t(s));
        v += 1_000_000_000L; // 8 Gb/s
      }
      watermark(h, Long.MAX_VALUE);
      assertThat(windows(h)).extracting(w -> w.txBytes).containsExactly(9_000_000_000L, 1_000_000_000L);
      assertThat(h.getSideOutput(TickedKeyedFunction.ANOMALIES)).isNull();
    }
  }
}
