package io.fleetscope.flink.nvlink;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.flink.core.AnomalyFactory;
import org.junit.jupiter.api.Test;

class NvlinkLinkStateTest {
  private static final AnomalyFactory F = new AnomalyFactory("nvlink");
  private final NvlinkLinkState p = new NvlinkLinkState();

  static NvlinkSample.Builder link(int link, long ts, String state) {
    return NvlinkSample.newBuilder().setTs(ts).setCluster("c1").setNode("n1").setAgentSeq(ts).setSource("nvidia-smi-nvlink")
        .setGpu(3).setUuid("GPU-n1-3").setLink(link).setState(state).setSpeedGbps("active".equals(state) ? 26.562 : null);
  }

  @Test
  void anExpectedLinkGoingInactiveFiresAtOnceAndResolvesWhenActiveAgain() {
    assertThat(p.onSample(link(5, t(0), "active").build(), 18, "r7", F)).isNull();
    Anomaly down = p.onSample(link(5, t(10), "inactive").build(), 18, "r7", F);
    assertThat(down.getStatus()).isEqualTo("firing");
    assertThat(down.getTs()).isEqualTo(t(10));
    assertThat(down.getLabels()).containsEntry("alertname", "NvlinkDown").containsEntry("severity", "critical")
        .containsEntry("node", "n1").containsEntry("gpu", "3").containsEntry("link", "5").containsEntry("rack", "r7");
    assertThat(down.getAnnotations().get("description")).contains("should have 18 links up");
    assertThat(p.onSample(link(5, t(20), "inactive").build(), 18, "r7", F)).isNull();
    Anomaly up = p.onSample(link(5, t(30), "active").build(), 18, "r7", F);
    assertThat(up.getStatus()).isEqualTo("resolved");
    assertThat(up.getFingerprint()).isEqualTo(down.getFingerprint());
  }

  @Test
  void aLinkBeyondTheExpectedCountThatWasNeverUpIsNotAFault() {
    // an H800 has 8 links: nvidia-smi may list unused link slots inactive
    assertThat(p.onSample(link(9, t(0), "inactive").build(), 8, null, F)).isNull();
    assertThat(p.firing()).isFalse();
  }

  @Test
  void withoutAnExpectedCountALinkThatWasUpAndWentInactiveIsDown() {
    assertThat(p.onSample(link(0, t(0), "inactive").build(), null, null, F)).as("never seen up, count unknown").isNull();
    assertThat(p.onSample(link(0, t(1), "active").build(), null, null, F)).isNull();
    assertThat(p.onSample(link(0, t(2), "inactive").build(), null, null, F).getStatus()).isEqualTo("firing");
    assertThat(p.onSample(link(0, t(2) + 1, "inactive").build(), null, null, F)).isNull();
    assertThat(p.firing()).isTrue();
  }

  @Test
  void anOlderSampleOrOneWithoutStateDecidesNothing() {
    p.onSample(link(1, t(10), "inactive").build(), 18, null, F);
    assertThat(p.onSample(link(1, t(9), "active").build(), 18, null, F)).isNull();
    assertThat(p.onSample(link(1, t(11), null).setReplayErrors(3L).build(), 18, null, F)).isNull();
    assertThat(p.firing()).isTrue();
  }
}
