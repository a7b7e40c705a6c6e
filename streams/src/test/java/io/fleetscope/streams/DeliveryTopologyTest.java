package io.fleetscope.streams;

import static io.fleetscope.streams.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Delivery: immediate send, periodic re-send before expiry, back-off while the sink is down, no lost resolution. */
class DeliveryTopologyTest {

  @Test
  void firingIsSentAndResentResolutionIsRetriedUntilAcknowledged() throws Exception {
    try (Harness h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "0",
        CorrelatorConfig.RESEND, "60", CorrelatorConfig.VALIDITY, "240", CorrelatorConfig.RETRY_INITIAL, "1000",
        CorrelatorConfig.RETRY_MAX, "4000", CorrelatorConfig.TICK, "100",
        CorrelatorConfig.RESOLVED_RESEND, "150"))) {
      RecordingSink sink = h.sink;
      Anomaly a = Fleet.gpuHot(T0.minusSeconds(30), Fleet.node(8, 1), 4);
      h.pipe(a, T0);
      assertThat(sink.batches).hasSize(1);
      OutboundAlert sent = sink.last().get(0);
      assertThat(sent.status()).isEqualTo("firing");
      assertThat(sent.labels()).containsAllEntriesOf(a.getLabels()).containsEntry("rack", "r08").hasSize(6);
      assertThat(sent.startsAt()).isEqualTo(T0.minusSeconds(30));
      assertThat(sent.endsAt()).isEqualTo(T0.plusSeconds(240)); // expires unless re-sent
      assertThat(sent.generatorUrl()).isEqualTo("http://127.0.0.1:18083/api/v1/incidents/" + a.getFingerprint());
      assertThat(sent.annotations()).containsEntry("runbook_url", "docs/runbooks.md#gputhermalthrottlerisk");

      h.advance(Duration.ofSeconds(30));
      assertThat(sink.batches).hasSize(1);
      h.advance(Duration.ofSeconds(31)); // 61 s after the first send: re-send with a fresh endsAt
      assertThat(sink.batches).hasSize(2);
      assertThat(sink.last().get(0).endsAt()).isEqualTo(T0.plusSeconds(61 + 240));

      sink.down = true;
      Instant resolvedAt = T0.plusSeconds(50);
      h.pipe(Fleet.resolved(a, resolvedAt), resolvedAt);
      assertThat(sink.batches).hasSize(3); // attempted at once, fails
      h.advance(Duration.ofMillis(100)); // failure seen: back off 1 s
      h.advance(Duration.ofMillis(500));
      assertThat(sink.batches).hasSize(3);
      h.advance(Duration.ofMillis(600));
      assertThat(sink.batches).hasSize(4); // second attempt, fails: back off 2 s
      h.advance(Duration.ofMillis(100));
      h.advance(Duration.ofMillis(1500));
      assertThat(sink.batches).hasSize(4);
      assertThat(h.<DeliveryState>store(DeliveryProcessor.STORE)).hasSize(1); // the resolution is still owed

      sink.down = false;
      h.advance(Duration.ofMillis(600));
      assertThat(sink.batches).hasSize(5);
      OutboundAlert resolution = sink.last().get(0);
      assertThat(resolution.status()).isEqualTo("resolved");
      assertThat(resolution.endsAt()).isEqualTo(resolvedAt);
      assertThat(sink.batches.subList(2, 5)).allSatisfy(b -> assertThat(b).containsExactly(resolution));

      // a resolution that claims to end in the future (detector clock ahead) is sent as ending now
      Anomaly b = Fleet.gpuHot(T0, Fleet.node(8, 1), 6);
      h.pipe(b, T0);
      h.advance(Duration.ofMillis(100));
      h.pipe(Fleet.resolved(b, T0.plusSeconds(3600)), T0.plusSeconds(3600));
      h.advance(Duration.ofMillis(100));
      OutboundAlert clamped = sink.last().get(0);
      assertThat(clamped.status()).isEqualTo("resolved");
      assertThat(clamped.endsAt()).isBetween(T0.plusSeconds(64), T0.plusSeconds(65)); // the wall clock, not an hour ahead
      int sends = sink.batches.size();
      h.advance(Duration.ofMillis(100));
      assertThat(h.<DeliveryState>store(DeliveryProcessor.STORE)).hasSize(2)
          .allSatisfy(kv -> assertThat(kv.value.acknowledged()).isTrue());

      // like Prometheus, the acknowledged resolution is repeated during the resolved re-send window ...
      h.advance(Duration.ofSeconds(61));
      assertThat(sink.batches).hasSize(sends + 1);
      assertThat(sink.last()).contains(resolution);
      h.advance(Duration.ofMillis(100));
      // ... and then forgotten
      h.advance(Duration.ofSeconds(90));
      assertThat(h.<DeliveryState>store(DeliveryProcessor.STORE)).isEmpty();
      h.advance(Duration.ofSeconds(120));
      assertThat(sink.batches).hasSize(sends + 1);
    }
  }

  @Test
  void backoffDoublesUpToTheMaximum() {
    CorrelatorConfig c = CorrelatorConfig.of(Map.of(CorrelatorConfig.RETRY_INITIAL, "500", CorrelatorConfig.RETRY_MAX, "30000"));
    DeliveryProcessor p = new DeliveryProcessor(new RecordingSink(), c);
    assertThat(List.of(1, 2, 3, 6, 7, 40)).extracting(p::backoffMs)
        .containsExactly(500L, 1000L, 2000L, 16000L, 30000L, 30000L);
  }
}
