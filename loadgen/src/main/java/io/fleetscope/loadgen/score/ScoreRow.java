package io.fleetscope.loadgen.score;

/**
 * Scores of one alertname in one scenario.
 *
 * @param labels expected occurrences (ground-truth labels)
 * @param detected labels matched by at least one firing anomaly
 * @param firing firing episodes counted for precision (tolerated ones excluded)
 * @param truePositives firing episodes that match a label
 * @param precision truePositives / firing, NaN when nothing fired
 * @param recall detected / labels, NaN when nothing was expected
 * @param delayMedianMs median over detected labels of (first matching starts_at - label start), clamped at 0; -1 if none
 * @param delayMaxMs the largest such delay; -1 if none
 */
public record ScoreRow(String scenario, String alertname, int labels, int detected, int firing, int truePositives,
    int tolerated, double precision, double recall, long delayMedianMs, long delayMaxMs) {

  public int falsePositives() {
    return firing - truePositives;
  }
}
