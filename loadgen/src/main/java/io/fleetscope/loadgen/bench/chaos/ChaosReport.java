package io.fleetscope.loadgen.bench.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The result of a chaos run: the table of faults and the counts, and whether anything was lost,
 * stored twice, paged twice, left unresolved or missed by the live analytics, or whether a component
 * exited on its own (the run restarts it as a supervisor would, and counts it as a failure).
 */
public record ChaosReport(int nodes, double minutes, List<FaultOutcome> faults, List<String> unplannedExits,
    List<String> notInjected, RawVerdict raw, AnomalyDiff anomalies, PageLedger.Verdict pages,
    Map<String, Long> deadLetters, AgentVerdict agent, long agentAnomalies) {

  /** A run without the real node agent. */
  public ChaosReport(int nodes, double minutes, List<FaultOutcome> faults, List<String> unplannedExits,
      List<String> notInjected, RawVerdict raw, AnomalyDiff anomalies, PageLedger.Verdict pages,
      Map<String, Long> deadLetters) {
    this(nodes, minutes, faults, unplannedExits, notInjected, raw, anomalies, pages, deadLetters, null, 0);
  }

  /**
   * The reason of the dead letters a healthy run writes too: the simulator sends 0.05% of its
   * records 60-180 s late on purpose, and each analytic that finds one late dead-letters it (it is
   * still stored raw).
   */
  public static final String EXPECTED_DEAD_LETTER = "late";

  /** Dead letters whose reason is not {@link #EXPECTED_DEAD_LETTER}: input the analytics or the correlator dropped. */
  public long unexpectedDeadLetters() {
    return deadLetters.entrySet().stream().filter(e -> !e.getKey().endsWith(" " + EXPECTED_DEAD_LETTER))
        .mapToLong(Map.Entry::getValue).sum();
  }


  /** Every check held and every fault recovered. */
  public boolean passed() {
    return failures().isEmpty();
  }

  /** One line per failed check. */
  public List<String> failures() {
    List<String> out = new ArrayList<>();
    faults.stream().filter(f -> !f.recovered())
        .forEach(f -> out.add("fault " + f.kind().label() + " at " + fmt(f.atS()) + " s: the pipeline did not recover"));
    unplannedExits.forEach(x -> out.add("unplanned exit: " + x));
    if (raw.acked() == 0) {
      out.add("raw: the broker acknowledged no record");
    }
    if (raw.lost() > 0) {
      out.add("raw: " + raw.lost() + " acknowledged records missing from TimescaleDB, e.g. " + raw.lostSample());
    }
    if (raw.duplicatedStored() > 0) {
      out.add("raw: " + raw.duplicatedStored() + " records stored more than once");
    }
    if (agent != null) {
      if (agent.stored() == 0) {
        out.add("agent " + agent.node() + ": none of its records is in TimescaleDB");
      }
      if (agent.lost() > 0) {
        out.add("agent " + agent.node() + ": " + agent.lost() + " agent_seq missing beyond the " + agent.droppedCounted()
            + " it counted as dropped, e.g. " + agent.missingSample());
      }
      if (agent.duplicatedStored() > 0) {
        out.add("agent " + agent.node() + ": " + agent.duplicatedStored() + " records stored more than once");
      }
    }
    if (unexpectedDeadLetters() > 0) {
      out.add("dead letters: " + unexpectedDeadLetters() + " for a reason other than " + EXPECTED_DEAD_LETTER + ": "
          + deadLetters.entrySet().stream().filter(e -> !e.getKey().endsWith(" " + EXPECTED_DEAD_LETTER)).toList());
    }
    if (anomalies.batch() == 0) {
      out.add("anomalies: bounded analyze found none, so nothing was compared");
    }
    if (!anomalies.missingLive().isEmpty()) {
      out.add("anomalies: " + anomalies.missingLive().size() + " from analyze missing in the live run, e.g. "
          + anomalies.missingLive().stream().limit(3).toList());
    }
    if (!anomalies.extraLive().isEmpty()) {
      out.add("anomalies: " + anomalies.extraLive().size() + " in the live run that analyze did not produce, e.g. "
          + anomalies.extraLive().stream().limit(3).toList());
    }
    if (pages.incidents() == 0) {
      out.add("notifications: none arrived, so nothing was checked");
    }
    pages.notifiedTwice().forEach(i -> out.add("notifications: " + i.receiver() + " notified " + i.firing()
        + " times for one incident: " + i.description()));
    pages.resolutionMissing().forEach(i -> out.add("notifications: no resolution for " + i.description()));
    return out;
  }

  public String text() {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "bench chaos: %d nodes, %.1f minutes of fleet%n%n", nodes, minutes));
    b.append("| fault | at s | down s | recovered s | what |\n|---|---|---|---|---|\n");
    for (FaultOutcome f : faults) {
      b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", f.kind().label(), fmt(f.atS()), fmt(f.downS()),
          f.recovered() ? fmt(f.recoverS()) : "never", f.detail()));
    }
    notInjected.forEach(n -> b.append("| - | - | - | - | not injected: ").append(n).append(" |\n"));
    b.append('\n').append("| count | value |\n|---|---|\n");
    row(b, "faults injected / recovered", faults.size() + " / " + faults.stream().filter(FaultOutcome::recovered).count());
    row(b, "components that exited on their own (restarted by the run)", unplannedExits.size());
    row(b, "raw records of the simulated fleet acknowledged by the broker (distinct node, agent_seq)", raw.acked());
    row(b, "raw records in TimescaleDB (distinct node, agent_seq)", raw.stored());
    row(b, "lost (acknowledged, not stored)", raw.lost());
    row(b, "stored twice", raw.duplicatedStored());
    row(b, "stored though the generator saw the send fail", raw.unacknowledgedStored());
    row(b, "raw records on the topics (repeats included)", raw.onTopics());
    row(b, "copies re-sent by the producers (on the topics more than once)", raw.resentOnTopics());
    if (agent != null) {
      row(b, "agent " + agent.node() + ": agent_seq first .. last stored", agent.firstSeq() + " .. " + agent.lastSeq());
      row(b, "agent " + agent.node() + ": records in TimescaleDB (distinct agent_seq) / numbers first..last",
          agent.stored() + " / " + agent.expected());
      row(b, "agent " + agent.node() + ": dropped, counted by the agent (full spool) / missing agent_seq",
          agent.droppedCounted() + " / " + agent.missing());
      row(b, "agent " + agent.node() + ": lost (missing, not counted as dropped)", agent.lost());
      row(b, "agent " + agent.node() + ": stored twice", agent.duplicatedStored());
      row(b, "anomalies about the agent's node (not compared: analyze runs on the simulated fleet only)", agentAnomalies);
    }
    deadLetters.forEach((k, v) -> row(b, "dead letters: " + k, v));
    row(b, "anomalies: bounded analyze / live", anomalies.batch() + " / " + anomalies.live());
    row(b, "anomalies missing live / extra live", anomalies.missingLive().size() + " / " + anomalies.extraLive().size());
    row(b, "incidents notified / pages", pages.incidents() + " / " + pages.pages());
    row(b, "incidents notified more than once", pages.notifiedTwice().size());
    row(b, "resolutions delivered / missing", pages.resolutionsDelivered() + " / " + pages.resolutionMissing().size());
    List<String> f = failures();
    b.append('\n').append(f.isEmpty() ? "verdict: passed\n" : "verdict: FAILED\n");
    f.forEach(x -> b.append("  - ").append(x).append('\n'));
    return b.toString();
  }

  private static void row(StringBuilder b, String what, Object v) {
    b.append("| ").append(what).append(" | ").append(v).append(" |\n");
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
