package io.fleetscope.loadgen.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The real agent's part of the chaos verdict: its /metrics, its agent_seq against what was stored. */
class AgentChecksTest {

  private static Map<Long, Integer> rows(long from, long to) {
    Map<Long, Integer> m = new TreeMap<>();
    for (long s = from; s <= to; s++) {
      m.put(s, 1);
    }
    return m;
  }

  @Test
  void contiguousAgentSeqIsNothingLost() {
    AgentVerdict v = AgentVerdict.of("n", rows(0, 999), 0);
    assertThat(v.firstSeq()).isZero();
    assertThat(v.lastSeq()).isEqualTo(999);
    assertThat(v.expected()).isEqualTo(1000);
    assertThat(v.stored()).isEqualTo(1000);
    assertThat(v.missing()).isZero();
    assertThat(v.lost()).isZero();
    assertThat(v.passed()).isTrue();
  }

  @Test
  void aGapCountedAsDroppedByTheAgentIsNotLost() {
    Map<Long, Integer> m = rows(0, 999);
    for (long s = 300; s < 340; s++) {
      m.remove(s);
    }
    AgentVerdict v = AgentVerdict.of("n", m, 40);
    assertThat(v.missing()).isEqualTo(40);
    assertThat(v.droppedCounted()).isEqualTo(40);
    assertThat(v.lost()).isZero();
    assertThat(v.passed()).isTrue();
  }

  @Test
  void aGapBeyondTheDroppedCountIsLostAndNamed() {
    Map<Long, Integer> m = rows(10, 100);
    m.remove(50L);
    m.remove(51L);
    m.remove(77L);
    AgentVerdict v = AgentVerdict.of("n", m, 1);
    assertThat(v.missing()).isEqualTo(3);
    assertThat(v.lost()).isEqualTo(2);
    assertThat(v.missingSample()).containsExactly(50L, 51L, 77L);
    assertThat(v.passed()).isFalse();
  }

  @Test
  void aRecordStoredTwiceIsCountedOnce() {
    Map<Long, Integer> m = rows(0, 9);
    m.put(4L, 3);
    AgentVerdict v = AgentVerdict.of("n", m, 0);
    assertThat(v.stored()).isEqualTo(10);
    assertThat(v.duplicatedStored()).isEqualTo(2);
    assertThat(v.passed()).isFalse();
  }

  @Test
  void nothingStoredFails() {
    AgentVerdict v = AgentVerdict.of("n", Map.of(), 0);
    assertThat(v.firstSeq()).isEqualTo(-1);
    assertThat(v.passed()).isFalse();
  }

  @Test
  void theAgentsRowsAreTakenFromItsNodeAndTopicOnly() {
    RecordTally t = new RecordTally();
    t.add(new RecordId(Topics.GPU, "agent", 1));
    t.add(new RecordId(Topics.GPU, "agent", 2), 2);
    t.add(new RecordId(Topics.GPU, "sim-node-0", 1));
    t.add(new RecordId(Topics.IB, "agent", 3));
    assertThat(AgentVerdict.rowsBySeq(t, Topics.GPU, "agent")).containsExactly(Map.entry(1L, 1), Map.entry(2L, 2));
    RecordTally rest = t.without("agent");
    assertThat(rest.size()).isEqualTo(1);
    assertThat(rest.count(new RecordId(Topics.GPU, "sim-node-0", 1))).isEqualTo(1);
  }

  @Test
  void metricsAreReadFromThePrometheusText() {
    AgentMetrics m = AgentMetrics.parse(String.join("\n",
        "# HELP fleetscope_agent_records_spooled_total records",
        "# TYPE fleetscope_agent_records_spooled_total counter",
        "fleetscope_agent_records_spooled_total 1200",
        "fleetscope_agent_records_sent_total 1000.0",
        "fleetscope_agent_records_dropped_total 50",
        "fleetscope_agent_records_failed_total{topic=\"fleet.gpu.v1\"} 3",
        "fleetscope_agent_records_failed_total{topic=\"fleet.ib.v1\"} 2",
        "fleetscope_agent_spool_bytes 123456",
        "fleetscope_agent_spool_disk_full_total 7",
        "fleetscope_agent_collector_success{collector=\"nvidia_smi\"} 1",
        "garbage",
        ""));
    assertThat(m.get(AgentMetrics.SPOOLED)).isEqualTo(1200);
    assertThat(m.get(AgentMetrics.SENT)).isEqualTo(1000);
    assertThat(m.get(AgentMetrics.FAILED)).isEqualTo(5);
    assertThat(m.get(AgentMetrics.SPOOL_BYTES)).isEqualTo(123456);
    assertThat(m.get(AgentMetrics.DISK_FULL)).isEqualTo(7);
    assertThat(m.get(AgentMetrics.SEQ_NEXT)).as("absent").isZero();
    assertThat(m.unsent()).isEqualTo(1200 - 1000 - 50 - 5);
  }

  @Test
  void theAgentFaultsHaveCommandLineLabels() {
    assertThat(FaultKind.SPOOL_FULL.label()).isEqualTo("spool-full");
    assertThat(FaultKind.parse("spool-full")).isEqualTo(FaultKind.SPOOL_FULL);
    assertThat(FaultKind.parse("spool_full")).isEqualTo(FaultKind.SPOOL_FULL);
    assertThat(FaultKind.parse("agent")).isEqualTo(FaultKind.AGENT);
    assertThat(List.of(FaultKind.values()).stream().filter(FaultKind::needsAgent))
        .containsExactly(FaultKind.AGENT, FaultKind.SPOOL_FULL);
    assertThatThrownBy(() -> FaultKind.parse("disk")).hasMessageContaining("spool-full");
  }

  @Test
  void theReportNamesTheAgentsLossesAndItsDroppedRecords() {
    Map<Long, Integer> m = rows(0, 99);
    m.remove(10L);
    AgentVerdict agent = AgentVerdict.of("chaos-agent-0", m, 0);
    RawVerdict raw = RawVerdict.of(tally(1), tally(1), tally(1));
    ChaosReport r = new ChaosReport(8, 5, List.of(), List.of(), List.of(), raw, AnomalyDiff.of(java.util.Set.of("a"),
        java.util.Set.of("a")), new PageLedger().verdict(java.util.Set.of()), Map.of(), agent, 0);
    assertThat(r.text()).contains("agent chaos-agent-0: lost (missing, not counted as dropped) | 1 |");
    assertThat(r.failures()).anySatisfy(f -> assertThat(f).contains("1 agent_seq missing").contains("[10]"));
  }

  private static RecordTally tally(int n) {
    RecordTally t = new RecordTally();
    for (int i = 0; i < n; i++) {
      t.add(new RecordId(Topics.GPU, "sim", i));
    }
    return t;
  }
}
