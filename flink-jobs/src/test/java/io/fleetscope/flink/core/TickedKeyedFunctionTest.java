package io.fleetscope.flink.core;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.io.DeadLetters;
import io.fleetscope.flink.testing.Fleet;
import io.fleetscope.flink.testing.Runs;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

class TickedKeyedFunctionTest {
  /** Emits "n records" per tick, dead-letters hot samples, and asks for one quiet tick later. */
  static final class Probe extends TickedKeyedFunction<GpuSample, String> {
    Probe() {
      super("fleet.gpu.v1", GpuSample.class, 10_000, AnalyticsConfig.defaults().pipeline(), Runs.CLOCK);
    }

    @Override
    protected void onTick(Tick<String> tick, List<GpuSample> records) {
      tick.emit(tick.key() + " end=" + tick.end() + " n=" + records.size()
          + " seqs=" + records.stream().map(GpuSample::getAgentSeq).toList());
      for (GpuSample s : records) {
        if (s.getTempC() != null && s.getTempC() > 120) {
          tick.deadLetter(DeadLetters.rejected("fleet.gpu.v1", s, "too hot for this analytic", Runs.CLOCK.now()));
        }
      }
      if (!records.isEmpty()) {
        tick.scheduleTick(tick.end() + 30_000);
      }
    }
  }

  @Test
  void ticksAreSortedScheduledAndRejectionsGoToTheDlqTag() throws Exception {
    KeyedBroadcastOperatorTestHarness<String, GpuSample, SpecificRecord, String> h =
        ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(new Probe(), GpuSample::getNode, Types.STRING,
            Topology.INVENTORY, Topology.JOBS);
    h.processElement(Fleet.gpu("n1", 0, t(5), 2).setTempC(130.0).build(), t(5));
    h.processElement(Fleet.gpu("n1", 0, t(5), 1).build(), t(5));
    h.processElement(Fleet.gpu("n1", 0, t(1), 0).build(), t(1));
    h.processBroadcastWatermark(new Watermark(Long.MAX_VALUE));
    h.processWatermark(new Watermark(Long.MAX_VALUE));
    assertThat(h.extractOutputValues()).containsExactly("n1 end=" + t(10) + " n=3 seqs=[0, 1, 2]", "n1 end=" + t(40) + " n=0 seqs=[]");
    assertThat(h.getSideOutput(TickedKeyedFunction.REJECTED)).singleElement().extracting(StreamRecord::getValue)
        .satisfies(d -> assertThat(d.getReason()).isEqualTo("too hot for this analytic"));
    h.close();
  }
}
