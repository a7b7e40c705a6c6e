package io.fleetscope.loadgen.sim;

/** The raw counters of one HCA port. */
final class PortState {
  long xmitBytes;
  long rcvBytes;
  long xmitPkts;
  long rcvPkts;
  long xmitWait;
  long symbolErrors;
  long linkDowned;
  long linkErrorRecovery;
  long rcvErrors;
  long xmitDiscards;
  long ecn;
  long cnpSent;
  long cnpHandled;
  long pfcRx;
  long pfcTx;

  PortState(Rng rng) {
    xmitBytes = rng.nextLong(1L << 52);
    rcvBytes = xmitBytes + rng.nextLong(1L << 44);
    xmitPkts = xmitBytes / 4096;
    rcvPkts = rcvBytes / 4096;
    xmitWait = rng.nextLong(1L << 30);
  }

  void reset() {
    xmitBytes = rcvBytes = xmitPkts = rcvPkts = xmitWait = 0;
    symbolErrors = linkDowned = linkErrorRecovery = rcvErrors = xmitDiscards = 0;
    ecn = cnpSent = cnpHandled = pfcRx = pfcTx = 0;
  }
}
