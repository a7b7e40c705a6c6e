package io.fleetscope.streams;

import static io.fleetscope.streams.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/** Flap hold-down and min firing duration, driven by the test driver's wall clock. */
class LifecycleTopologyTest {

  @Test
  void anAlertThatResolvesAndFiresAgainWithinTheHoldDownNeverStopsFiring() throws Exception {
    try (Harness h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "60"))) {
      Anomaly a = Fleet.gpuHot(T0, Fleet.node(8, 1), 4);
      h.pipe(a, T0);
      assertThat(h.alerts.readValuesToList()).extracting(Alert::getStatus, Alert::getVersion)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("firing", 1L));

      h.pipe(Fleet.resolved(a, T0.plusSeconds(5)), T0.plusSeconds(5));
      assertThat(h.alerts.isEmpty()).isTrue();
      assertThat(lifecycle(h)).extracting(s -> s.phase()).containsExactly(AlertState.Phase.RESOLVING);

      h.advance(Duration.ofSeconds(10));
      h.pipe(a, T0.plusSeconds(15)); // fires again within 60 s
      assertThat(h.alerts.isEmpty()).isTrue();
      AlertState s = lifecycle(h).get(0);
      assertThat(s.phase()).isEqualTo(AlertState.Phase.FIRING);
      assertThat(s.flaps()).isEqualTo(1);

      h.pipe(Fleet.resolved(a, T0.plusSeconds(20)), T0.plusSeconds(20));
      h.advance(Duration.ofSeconds(59));
      assertThat(h.alerts.isEmpty()).isTrue();
      assertThat(h.firingIncidents()).hasSize(1);
      h.advance(Duration.ofSeconds(2));
      List<Alert> out = h.alerts.readValuesToList();
      assertThat(out).extracting(Alert::getStatus, Alert::getVersion, Alert::getEndsAt)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("resolved", 2L, T0.plusSeconds(20).toEpochMilli()));
      assertThat(lifecycle(h)).extracting(AlertState::phase).containsExactly(AlertState.Phase.RESOLVED);
      assertThat(h.firingIncidents()).isEmpty();
      h.advance(Duration.ofSeconds(3600)); // the replay horizon (default): forgotten
      assertThat(lifecycle(h)).isEmpty();
    }
  }

  @Test
  void anAlertPagesOnlyAfterTheMinFiringDurationAndABlipNeverPages() throws Exception {
    try (Harness h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "30", CorrelatorConfig.FLAP_HOLD, "0"))) {
      Anomaly a = Fleet.gpuHot(T0, Fleet.node(8, 1), 4);
      h.pipe(a, T0);
      assertThat(lifecycle(h)).extracting(AlertState::phase).containsExactly(AlertState.Phase.PENDING);
      h.advance(Duration.ofSeconds(29));
      assertThat(h.alerts.isEmpty()).isTrue();
      h.advance(Duration.ofSeconds(2));
      List<KeyValue<String, Alert>> out = h.alerts.readKeyValuesToList();
      assertThat(out).extracting(kv -> kv.key, kv -> kv.value.getStatus())
          .containsExactly(org.assertj.core.groups.Tuple.tuple(a.getFingerprint(), "firing"));
      assertThat(out.get(0).value.getStartsAt()).isEqualTo(T0.toEpochMilli());

      Anomaly blip = Fleet.gpuHot(T0.plusSeconds(40), Fleet.node(8, 1), 6);
      h.pipe(blip, T0.plusSeconds(40));
      h.advance(Duration.ofSeconds(10));
      h.pipe(Fleet.resolved(blip, T0.plusSeconds(50)), T0.plusSeconds(50));
      h.advance(Duration.ofSeconds(60));
      assertThat(h.alerts.isEmpty()).isTrue();
      assertThat(lifecycle(h)).extracting(AlertState::fingerprint, AlertState::phase).containsExactlyInAnyOrder(
          org.assertj.core.groups.Tuple.tuple(a.getFingerprint(), AlertState.Phase.FIRING),
          org.assertj.core.groups.Tuple.tuple(blip.getFingerprint(), AlertState.Phase.RESOLVED));
    }
  }

  @Test
  void historyReplayedAfterARecoveryOfTheAnalyticsNeitherPagesNorReopens() throws Exception {
    try (Harness h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "60"))) {
      Anomaly a = Fleet.gpuHot(T0, Fleet.node(8, 1), 4);
      Anomaly end = Fleet.resolved(a, T0.plusSeconds(20));
      h.pipe(a, T0);
      h.pipe(end, T0.plusSeconds(20));
      h.advance(Duration.ofSeconds(61));
      assertThat(h.alerts.readValuesToList()).extracting(Alert::getStatus).containsExactly("firing", "resolved");

      // the analytics recover from a checkpoint taken before the episode and emit it again
      h.pipe(a, T0.plusSeconds(90));
      h.advance(Duration.ofSeconds(5));
      h.pipe(end, T0.plusSeconds(95));
      h.advance(Duration.ofSeconds(61));
      assertThat(h.alerts.isEmpty()).as("a replayed episode pages nobody").isTrue();
      assertThat(h.firingIncidents()).isEmpty();
      assertThat(lifecycle(h)).extracting(AlertState::phase).containsExactly(AlertState.Phase.RESOLVED);

      // a new episode of the same anomaly, started after the last one ended, pages as before
      Anomaly again = Fleet.gpuHot(T0.plusSeconds(200), Fleet.node(8, 1), 4);
      h.pipe(again, T0.plusSeconds(200));
      assertThat(h.alerts.readValuesToList()).extracting(Alert::getStatus, Alert::getStartsAt)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("firing", T0.plusSeconds(200).toEpochMilli()));
    }
  }

  @Test
  void aReplayedResolutionOfAnEarlierEpisodeDoesNotEndTheCurrentOne() throws Exception {
    try (Harness h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "0"))) {
      Anomaly first = Fleet.gpuHot(T0, Fleet.node(8, 1), 4);
      h.pipe(first, T0);
      h.pipe(Fleet.resolved(first, T0.plusSeconds(20)), T0.plusSeconds(20));
      Anomaly second = Fleet.gpuHot(T0.plusSeconds(100), Fleet.node(8, 1), 4);
      h.pipe(second, T0.plusSeconds(100));
      assertThat(h.alerts.readValuesToList()).extracting(Alert::getStatus).containsExactly("firing", "resolved", "firing");

      h.pipe(first, T0.plusSeconds(110)); // replayed history of the first episode
      h.pipe(Fleet.resolved(first, T0.plusSeconds(20)), T0.plusSeconds(111));
      assertThat(h.alerts.isEmpty()).isTrue();
      assertThat(h.firingIncidents()).hasSize(1);
      assertThat(lifecycle(h)).extracting(AlertState::phase, AlertState::startsAt)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(AlertState.Phase.FIRING, T0.plusSeconds(100).toEpochMilli()));
    }
  }

  @Test
  void withoutAReplayHorizonAReplayedEpisodePagesAgain() throws Exception {
    // the guard above is what absorbs replays: with the horizon at 0 the old behaviour comes back
    try (Harness h = new Harness(Map.of(CorrelatorConfig.MIN_FIRING, "0", CorrelatorConfig.FLAP_HOLD, "0",
        CorrelatorConfig.REPLAY_HORIZON, "0"))) {
      Anomaly a = Fleet.gpuHot(T0, Fleet.node(8, 1), 4);
      h.pipe(a, T0);
      h.pipe(Fleet.resolved(a, T0.plusSeconds(20)), T0.plusSeconds(20));
      h.pipe(a, T0.plusSeconds(30));
      assertThat(h.alerts.readValuesToList()).extracting(Alert::getStatus).containsExactly("firing", "resolved", "firing");
    }
  }

  private static List<AlertState> lifecycle(Harness h) {
    return h.<AlertState>store(LifecycleProcessor.STORE).stream().map(kv -> kv.value).toList();
  }
}
