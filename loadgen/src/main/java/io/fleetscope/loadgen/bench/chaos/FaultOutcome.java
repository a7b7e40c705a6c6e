package io.fleetscope.loadgen.bench.chaos;

/**
 * What happened to one injected fault: when (seconds after the fleet started), how long the service
 * was down (kill to healthy again, restart included), and how long until the pipeline had caught up
 * (consumer lag back down, the analytics job running); -1 when it never did.
 */
public record FaultOutcome(FaultKind kind, double atS, double downS, double recoverS, String detail) {
  public boolean recovered() {
    return recoverS >= 0;
  }
}
