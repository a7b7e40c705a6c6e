package io.fleetscope.flink.core;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.PduReading;
import io.fleetscope.flink.testing.Runs;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

class KeyedAnalyticFunctionTest {
  /** Counts a device's readings over its ticks in its unit state and says so per tick. */
  static final class Counter extends WholeNodeAnalytic<PduReading, String, Integer> {
    private static final long serialVersionUID = 1L;

    Counter() {
      super(Topics.PDU, 10_000, Types.STRING, Set.of(PduReading.class));
    }

    @Override
    protected void onTick(UnitTick<String, String> tick, List<PduReading> records, UnitState<Integer> state) {
      int n = (state.value() == null ? 0 : state.value()) + records.size();
      state.update(n);
      tick.emit(tick.node().cluster() + " " + tick.node().node() + " unit='" + tick.unit() + "' end=" + (tick.end() - t(0)) / 1000
          + " total=" + n);
    }
  }

  private static PduReading pdu(String device, long s) {
    return PduReading.newBuilder().setTs(t(s)).setCluster("c1").setDevice(device).setAgentSeq(s).build();
  }

  @Test
  void theAnalyticTicksPerDeviceWithItsStateAndNamesItselfInLateRecords() throws Exception {
    KeyedBroadcastOperatorTestHarness<String, PduReading, SpecificRecord, String> h =
        ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
            new KeyedAnalyticFunction<>(new Counter(), AnalyticsConfig.defaults().pipeline(), Runs.CLOCK),
            NodeFunction::nodeKey, Types.STRING, Topology.INVENTORY, Topology.JOBS);
    h.processElement(pdu("pdu-1", 1), t(1));
    h.processElement(pdu("pdu-1", 2), t(2));
    h.processElement(pdu("pdu-2", 3), t(3));
    h.processBroadcastWatermark(new Watermark(t(30)));
    h.processWatermark(new Watermark(t(30)));
    h.processElement(pdu("pdu-1", 4), t(4)); // its tick is done
    h.processElement(pdu("pdu-1", 31), t(31));
    h.processBroadcastWatermark(new Watermark(Long.MAX_VALUE));
    h.processWatermark(new Watermark(Long.MAX_VALUE));
    assertThat(h.extractOutputValues()).containsExactly(
        "c1 pdu-1 unit='' end=10 total=2",
        "c1 pdu-2 unit='' end=10 total=1",
        "c1 pdu-1 unit='' end=40 total=3");
    assertThat(h.getSideOutput(TickedKeyedFunction.LATE)).singleElement().extracting(StreamRecord::getValue)
        .satisfies(d -> assertThat(d.getReason()).startsWith("late: ts=" + t(4)).contains("analytic=Counter")
            .endsWith("(this node's slice ending " + t(10) + " was already evaluated)"));
    h.close();
  }
}
