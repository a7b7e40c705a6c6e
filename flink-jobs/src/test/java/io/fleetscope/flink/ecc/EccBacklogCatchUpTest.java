package io.fleetscope.flink.ecc;

import static io.fleetscope.flink.ecc.EccScenario.m;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.NodeFunction;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.io.Records;
import io.fleetscope.flink.testing.Runs;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * A scenario with a known answer ({@link EccScenario}: corrected errors on GPU 1 rise from minute 90
 * to 119 and page GpuEccCorrectableRising; a DBE and a pending row remap at minute 150), through the node
 * operator as the live job runs it. Once in time, once with the node's minutes 80 to 139 held back
 * (its agent spooled them through a broker outage) while the other nodes moved the watermark to
 * minute 140, and sent as one backlog: the anomalies, and their event times, are the same.
 */
class EccBacklogCatchUpTest {
  private static final long OUT_OF_ORDERNESS_MS = 5000;

  private static KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> harness(long catchUpMs)
      throws Exception {
    AnalyticsConfig cfg = EccScenario.config().with("pipeline", "catch_up_ms", catchUpMs);
    NodeFunction node = new NodeFunction("node-gpu", cfg.pipeline(), Runs.CLOCK);
    node.add(new EccFunction(cfg.section("ecc", EccConfig.class), XidCatalog.load(), "ecc"));
    var h = new KeyedBroadcastOperatorTestHarness<>(
        new CoBroadcastWithKeyedOperator<>(node, List.of(Topology.INVENTORY, Topology.JOBS)),
        NodeFunction::nodeKey, Types.STRING, 1, 1, 0);
    h.open();
    return h;
  }

  private static void watermark(KeyedBroadcastOperatorTestHarness<String, SpecificRecord, SpecificRecord, Void> h, long ms)
      throws Exception {
    h.processBroadcastWatermark(new Watermark(ms));
    h.processWatermark(ms);
  }

  /** Feeds the scenario; the node's records from {@code heldFrom} to {@code heldTo} (ms) come once the watermark is at heldTo. */
  private static List<String> run(long catchUpMs, long heldFrom, long heldTo, List<String> late) throws Exception {
    try (var h = harness(catchUpMs)) {
      List<SpecificRecord> held = new java.util.ArrayList<>();
      for (SpecificRecord r : EccScenario.records(true)) {
        if (r instanceof InventoryRecord) {
          h.processBroadcastElement(r, Records.ts(r));
          continue;
        }
        long ts = Records.ts(r);
        if (ts >= heldFrom && ts < heldTo) {
          held.add(r);
          continue;
        }
        if (!held.isEmpty()) {
          watermark(h, heldTo - OUT_OF_ORDERNESS_MS - 1); // the rest of the fleet moved on
          for (SpecificRecord b : held) {
            h.processElement(b, Records.ts(b));
          }
          held.clear();
        }
        h.processElement(r, ts);
        watermark(h, ts - OUT_OF_ORDERNESS_MS - 1);
      }
      watermark(h, m(240));
      var l = h.getSideOutput(TickedKeyedFunction.LATE);
      if (l != null) {
        l.forEach(d -> late.add(String.valueOf(d.getValue().getReason())));
      }
      var out = h.getSideOutput(TickedKeyedFunction.ANOMALIES);
      return out == null ? List.of() : out.stream().map(StreamRecord::getValue).map(EccBacklogCatchUpTest::brief).toList();
    }
  }

  private static String brief(Anomaly a) {
    return Runs.brief(a) + " starts_at=" + a.getStartsAt() + " ends_at=" + a.getEndsAt();
  }

  /** One hour: the backlog below is at most an hour behind. */
  private static final long CATCH_UP_MS = 3_600_000L;

  @Test
  void aBacklogWithAnEccFaultGivesTheAnomaliesOfTheSameRecordsInTime() throws Exception {
    List<String> late = new java.util.ArrayList<>();
    List<String> inTime = run(CATCH_UP_MS, Long.MAX_VALUE, Long.MAX_VALUE, late);
    assertThat(late).isEmpty();
    String rising = inTime.stream().filter(a -> a.startsWith("GpuEccCorrectableRising firing")).findFirst().orElseThrow();
    assertThat(rising).contains("gpu=1");
    assertThat(startsAt(rising)).isBetween(m(90), m(139)); // inside the backlog below

    List<String> backlog = run(CATCH_UP_MS, m(80), m(140), late);
    assertThat(late).isEmpty();
    assertThat(backlog).containsExactlyElementsOf(inTime);
  }

  @Test
  void withoutCatchUpTheSameBacklogIsLateAndItsFaultSeenOnlyAfterIt() throws Exception {
    List<String> late = new java.util.ArrayList<>();
    List<String> backlog = run(0, m(80), m(140), late);
    assertThat(late).hasSize(120).allSatisfy(r -> assertThat(r).startsWith("late: ").contains("pipeline.catch_up_ms=0"));
    // the counter's rise is seen only in the first record after the backlog, as one jump
    String rising = backlog.stream().filter(a -> a.startsWith("GpuEccCorrectableRising firing")).findFirst().orElseThrow();
    assertThat(startsAt(rising)).isGreaterThanOrEqualTo(m(140));
  }

  private static long startsAt(String brief) {
    String s = brief.substring(brief.indexOf("starts_at=") + "starts_at=".length());
    return Long.parseLong(s.substring(0, s.indexOf(' ')));
  }
}
