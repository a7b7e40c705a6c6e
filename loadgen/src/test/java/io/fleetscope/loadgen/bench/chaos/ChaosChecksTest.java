package io.fleetscope.loadgen.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The chaos suite's counting, on the simulator's real records: what it calls lost, duplicated, paged twice. */
class ChaosChecksTest {

  private static List<SimRecord> fleet() {
    SimConfig cfg = SimConfig.of(8, ScenarioLoader.load("chaos"), 3L).withDuration(Duration.ofSeconds(20));
    return new FleetSimulator(cfg).stream().toList();
  }

  @Test
  void everyRawRecordOfTheChaosFleetHasAnIdOfItsOwn() {
    List<SimRecord> records = fleet();
    RecordTally t = new RecordTally();
    long raw = 0;
    for (SimRecord r : records) {
      RecordId id = RecordId.of(r.topic(), r.value());
      if (id == null) {
        assertThat(r.topic()).isIn(Topics.INVENTORY, Topics.JOBS);
        assertThat(RecordId.RAW_TOPICS).doesNotContain(r.topic());
        continue;
      }
      raw++;
      t.add(id);
    }
    assertThat(raw).as("8 nodes: GPUs and ports for 20 s, and more").isGreaterThanOrEqualTo(8 * 16 * 20);
    assertThat(t.size()).as("no two raw records share (topic, source, agent_seq)").isEqualTo(raw);
    assertThat(t.snapshot().keySet()).anyMatch(id -> id.topic().equals(Topics.GPU) && id.source().startsWith("gpu-"))
        .anyMatch(id -> id.topic().equals(Topics.IB));
  }

  @Test
  void aRecordMissingFromTheStoreIsLostAndARepeatOnTheTopicIsCountedAsResent() {
    List<RecordId> ids = fleet().stream().map(r -> RecordId.of(r.topic(), r.value())).filter(x -> x != null).toList();
    RecordTally acked = new RecordTally();
    RecordTally stored = new RecordTally();
    RecordTally topics = new RecordTally();
    ids.forEach(acked::add);
    ids.forEach(topics::add);
    ids.stream().skip(2).forEach(stored::add);
    topics.add(ids.get(5));
    topics.add(ids.get(5));
    RawVerdict v = RawVerdict.of(acked, stored, topics);
    assertThat(v.lost()).isEqualTo(2);
    assertThat(v.lostSample()).containsExactlyInAnyOrder(ids.get(0), ids.get(1));
    assertThat(v.resentOnTopics()).isEqualTo(2);
    assertThat(v.onTopics()).isEqualTo(ids.size() + 2);
    assertThat(v.duplicatedStored()).isZero();
    assertThat(v.passed()).isFalse();

    stored.add(ids.get(0));
    stored.add(ids.get(1));
    stored.add(ids.get(1));
    RawVerdict dup = RawVerdict.of(acked, stored, topics);
    assertThat(dup.lost()).isZero();
    assertThat(dup.duplicatedStored()).isEqualTo(1);
    assertThat(dup.passed()).isFalse();

    RecordTally exact = new RecordTally();
    ids.forEach(exact::add);
    assertThat(RawVerdict.of(acked, exact, topics).passed()).isTrue();
    assertThat(RawVerdict.of(new RecordTally(), new RecordTally(), new RecordTally()).passed())
        .as("nothing acknowledged proves nothing").isFalse();
  }

  @Test
  void anIncidentNotifiedFiringTwiceOrEndedWithoutAResolutionFails() {
    PageLedger p = new PageLedger();
    p.add("pager", "firing", "a1", "IbLinkDown node-000");
    p.add("pager", "resolved", "a1", "IbLinkDown node-000");
    p.add("pager", "firing", "b2", "GpuXid node-002");
    p.add("ticket", "firing", "c3", "IbLinkDegraded node-001");
    assertThat(p.verdict(Set.of("b2", "c3")).passed()).isTrue();
    PageLedger.Verdict open = p.verdict(Set.of("b2"));
    assertThat(open.resolutionMissing()).extracting(PageLedger.Incident::fingerprint).containsExactly("c3");
    assertThat(open.passed()).isFalse();

    p.add("pager", "firing", "b2", "GpuXid node-002");
    PageLedger.Verdict twice = p.verdict(Set.of("b2", "c3"));
    assertThat(twice.notifiedTwice()).extracting(PageLedger.Incident::fingerprint).containsExactly("b2");
    assertThat(twice.pages()).isEqualTo(3);
    assertThat(twice.resolutionsDelivered()).isEqualTo(1);
    assertThat(twice.passed()).isFalse();
    assertThat(new PageLedger().verdict(Set.of()).passed()).as("no notification proves nothing").isFalse();
  }

  @Test
  void aResolutionAlertmanagerHasButHasNotNotifiedYetIsWaitedForNotCountedMissing() throws Exception {
    // the rail incident of bench chaos: resolved in Alertmanager (no longer active), notified at its
    // group's next flush, a few seconds after the run read the ledger
    PageLedger p = new PageLedger();
    p.add("pager", "firing", "r1", "IbRailDegraded rail 1");
    assertThat(p.verdict(Set.of()).resolutionMissing()).as("read at once").hasSize(1);
    List<Duration> waited = new java.util.ArrayList<>();
    PageLedger.Verdict v = p.settledVerdict(Set::of, Duration.ofSeconds(30), Duration.ofSeconds(1), d -> {
      waited.add(d);
      if (waited.size() == 4) {
        p.add("pager", "resolved", "r1", "IbRailDegraded rail 1"); // the group's flush
      }
    });
    assertThat(v.passed()).isTrue();
    assertThat(v.resolutionsDelivered()).isEqualTo(1);
    assertThat(waited).hasSize(4);

    PageLedger lost = new PageLedger();
    lost.add("pager", "firing", "r2", "IbRailDegraded rail 2");
    List<Duration> waitedLost = new java.util.ArrayList<>();
    PageLedger.Verdict never = lost.settledVerdict(Set::of, Duration.ofSeconds(30), Duration.ofSeconds(1), waitedLost::add);
    assertThat(never.resolutionMissing()).extracting(PageLedger.Incident::fingerprint).containsExactly("r2");
    assertThat(waitedLost).hasSize(30);
    // nothing missing: no wait at all
    assertThat(lost.settledVerdict(() -> Set.of("r2"), Duration.ofSeconds(30), Duration.ofSeconds(1), d -> {
      throw new AssertionError("waited");
    }).passed()).isTrue();
  }

  @Test
  void theScheduleSpreadsTheFaultsBeforeTheLastQuarterAndKeepsAlertmanagerDownForMinutes() {
    ChaosSchedule s = ChaosSchedule.plan(Duration.ofMinutes(8), Duration.ofSeconds(45), List.of(FaultKind.values()));
    assertThat(s.entries()).extracting(ChaosSchedule.Entry::kind).containsExactly(FaultKind.values());
    assertThat(s.entries().get(0).at()).isEqualTo(Duration.ofSeconds(45));
    assertThat(s.entries().get(s.entries().size() - 1).at()).isEqualTo(Duration.ofMinutes(6));
    assertThat(s.alertmanagerDown()).isEqualTo(Duration.ofSeconds(96));
    assertThat(ChaosSchedule.plan(Duration.ofMinutes(60), Duration.ofSeconds(45), List.of(FaultKind.BROKER))
        .alertmanagerDown()).isEqualTo(Duration.ofMinutes(5));
    assertThatThrownBy(() -> ChaosSchedule.plan(Duration.ofSeconds(50), Duration.ofSeconds(45), List.of(FaultKind.SINK)))
        .hasMessageContaining("no time for faults");
    assertThatThrownBy(() -> FaultKind.parse("dns")).hasMessageContaining("known: [broker, taskmanager");
    assertThat(FaultKind.parse(" Sink")).isEqualTo(FaultKind.SINK);
  }

  @Test
  void theReportNamesEveryFailureAndPassesOnlyWhenAllHeld() {
    RecordTally ids = new RecordTally();
    fleet().stream().map(r -> RecordId.of(r.topic(), r.value())).forEach(ids::add);
    PageLedger p = new PageLedger();
    p.add("pager", "firing", "a1", "IbLinkDown node-000");
    p.add("pager", "resolved", "a1", "IbLinkDown node-000");
    List<FaultOutcome> faults = List.of(new FaultOutcome(FaultKind.BROKER, 45, 8.2, 20.5, "SIGKILL pid 1, restarted"));
    ChaosReport ok = new ChaosReport(8, 5, faults, List.of(), List.of("spool disk full"), RawVerdict.of(ids, ids, ids),
        AnomalyDiff.of(Set.of("x"), Set.of("x")), p.verdict(Set.of()),
        Map.of("ecc fleet.gpu.v1 late", 12L));
    assertThat(ok.passed()).as(ok.failures().toString()).isTrue();
    assertThat(ok.text()).contains("| broker | 45.0 | 8.2 | 20.5 |", "| dead letters: ecc fleet.gpu.v1 late | 12 |", "not injected: spool disk full", "verdict: passed");

    List<FaultOutcome> stuck = List.of(new FaultOutcome(FaultKind.REGISTRY, 100, 3, -1, "SIGKILL"));
    ChaosReport bad = new ChaosReport(8, 5, stuck, List.of("sink exited on its own (exit 1)"), List.of(),
        RawVerdict.of(ids, new RecordTally(), ids),
        AnomalyDiff.of(Set.of("x", "y"), Set.of("x", "z")), p.verdict(Set.of()),
        Map.of("ecc fleet.gpu.v1 late", 12L, "ecc fleet.gpu.v1 undecodable", 3L));
    assertThat(bad.unexpectedDeadLetters()).isEqualTo(3);
    assertThat(bad.failures()).hasSize(6).anyMatch(f -> f.startsWith("dead letters: 3 for a reason other than late")).anyMatch(f -> f.startsWith("fault registry at 100.0 s"))
        .anyMatch(f -> f.equals("unplanned exit: sink exited on its own (exit 1)"))
        .anyMatch(f -> f.startsWith("raw: " + ids.size() + " acknowledged records missing"))
        .anyMatch(f -> f.startsWith("anomalies: 1 from analyze missing"))
        .anyMatch(f -> f.startsWith("anomalies: 1 in the live run"));
    assertThat(bad.text()).contains("| registry | 100.0 | 3.0 | never |", "verdict: FAILED");
  }
}
