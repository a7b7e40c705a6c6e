package io.fleetscope.flink.rail;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.CounterDelta;
import io.fleetscope.flink.core.Hysteresis;
import io.fleetscope.flink.core.Threshold;
import io.fleetscope.flink.io.Records;
import java.io.Serializable;
import java.util.List;
import java.util.Locale;

/**
 * The state of one HCA port across rail windows (pure; no Flink): counter increases with reset and
 * wrap handling, and the port's anomalies: IbLinkDown (state not ACTIVE or phys_state not LinkUp),
 * IbLinkDegraded (rate below nominal, or link_downed rising), IbSymbolErrors, RoceCongestion
 * (PFC pauses, ECN marks or CNPs per second above their limits for consecutive windows).
 * IbLinkDegraded, IbSymbolErrors and RoceCongestion resolve with hysteresis ({@link Hysteresis}):
 * only after the port has stayed clearly inside every limit ({@code resolve_margin_pct}) for
 * {@code resolve_hold_ms}; IbLinkDown resolves on the first window with the link up.
 */
public final class PortAnalyzer implements Serializable {
  private static final long serialVersionUID = 1L;

  private Long lastTs;
  private Long lastTx;
  private Long lastRx;
  private Long lastSym;
  private Long lastDowned;
  private Long lastPfc;
  private Long lastEcn;
  private Long lastCnp;
  private int congestedWindows;
  private final AlertTracker alerts = new AlertTracker();
  /** Hysteresis of IbLinkDegraded, IbSymbolErrors, RoceCongestion; null in a state restored from before them. */
  private Hysteresis degradedState;
  private Hysteresis symbolState;
  private Hysteresis congestionState;

  /**
   * Consumes one window's samples of this port (sorted by ts) and returns its traffic; anomaly
   * transitions are added to {@code anomalies}.
   *
   * @param nominalGbps the port's nominal line rate (inventory, else the configured line rate)
   * @param rack the node's rack when known (context label), else null
   */
  public PortWindow window(List<IbPortSample> samples, long windowEnd, double nominalGbps, String rack,
      RailConfig cfg, AnomalyFactory f, List<Anomaly> anomalies) {
    if (samples.isEmpty()) {
      return null;
    }
    IbPortSample last = samples.get(samples.size() - 1);
    PortWindow w = new PortWindow();
    w.cluster = last.getCluster();
    w.node = last.getNode();
    w.device = last.getDevice();
    w.port = last.getPort();
    w.rail = last.getRail() == null ? -1 : last.getRail();
    w.windowEnd = windowEnd;
    w.lineRateGbps = nominalGbps;
    long sym = 0;
    long downed = 0;
    long pfc = 0;
    long ecn = 0;
    long cnp = 0;
    double coveredS = 0;
    for (IbPortSample s : samples) {
      long byteMod = CounterDelta.modulus(s.getCounterWidthBits(), 4);
      if (lastTs != null && s.getTs() > lastTs) {
        double dtS = (s.getTs() - lastTs) / 1000.0;
        double maxBytes = cfg.wrapPlausibilityFactor() * nominalGbps * 1e9 / 8 * dtS;
        w.txBytes += known(CounterDelta.delta(lastTx, s.getXmitBytes(), byteMod, maxBytes));
        w.rxBytes += known(CounterDelta.delta(lastRx, s.getRcvBytes(), byteMod, maxBytes));
        sym += known(CounterDelta.delta(lastSym, s.getSymbolErrors(), 0, 0));
        downed += known(CounterDelta.delta(lastDowned, s.getLinkDowned(), 0, 0));
        pfc += known(CounterDelta.delta(lastPfc, sum(s.getPfcPauseRx(), s.getPfcPauseTx()), 0, 0));
        ecn += known(CounterDelta.delta(lastEcn, s.getEcnMarkedPkts(), 0, 0));
        cnp += known(CounterDelta.delta(lastCnp, sum(s.getCnpSent(), s.getCnpHandled()), 0, 0));
        coveredS += dtS;
      } else if (lastTs != null && s.getTs() <= lastTs) {
        continue; // a duplicate or an older sample: already counted
      }
      lastTs = s.getTs();
      lastTx = s.getXmitBytes();
      lastRx = s.getRcvBytes();
      lastSym = s.getSymbolErrors();
      lastDowned = s.getLinkDowned();
      lastPfc = sum(s.getPfcPauseRx(), s.getPfcPauseTx());
      lastEcn = s.getEcnMarkedPkts();
      lastCnp = sum(s.getCnpSent(), s.getCnpHandled());
    }
    String state = last.getState();
    String phys = last.getPhysState();
    boolean down = !Records.portActive(state)
        || (phys != null && !phys.toLowerCase(Locale.ROOT).replace(" ", "").contains("linkup"));
    Double rate = last.getRateGbps();
    boolean rateLow = !down && rate != null && rate < nominalGbps * cfg.degradedRateFraction();
    boolean downedRising = downed >= cfg.linkDownedIncrease();
    w.up = !down;
    w.degraded = down || rateLow || downedRising;
    long ts = last.getTs();
    String where = w.node + " " + w.device + " port " + w.port + (w.rail >= 0 ? " (rail " + w.rail + ")" : "");

    final long symF = sym;
    final long downedF = downed;
    final long pfcF = pfc;
    anomalies.add(alerts.update(() -> labels(f.alert("IbLinkDown", "critical"), w, rack), down, ts, d -> d
        .summary("IB link down on " + where)
        .description("state=" + state + " phys_state=" + phys + " on " + where + " in cluster " + w.cluster
            + ": traffic of this rail moves to the remaining ports or the job stalls")
        .value(0.0)));
    if (degradedState == null) {
      degradedState = restored(f.alert("IbLinkDegraded", "warning"), w, rack);
    }
    boolean degradedNow = rateLow || downedRising;
    degradedState.update(degradedNow, !degradedNow, ts, cfg.resolveHoldMs());
    anomalies.add(alerts.update(() -> labels(f.alert("IbLinkDegraded", "warning"), w, rack), degradedState.firing(), ts, d -> d
        .summary("IB link degraded on " + where)
        .description((rateLow ? "rate " + rate + " Gb/s below nominal " + nominalGbps + " Gb/s"
            : downedRising ? "link_downed rose by " + downedF + " within " + cfg.windowMs() / 1000 + " s"
            : "rate " + rate + " Gb/s and no link_downed increase for " + cfg.resolveHoldMs() / 1000 + " s")
            + " on " + where + "; check the cable/transceiver and the switch port")
        .value(rateLow ? rate : (double) downedF)));
    if (symbolState == null) {
      symbolState = restored(f.alert("IbSymbolErrors", "warning"), w, rack);
    }
    symbolState.update(Threshold.atLeast(cfg.symbolErrorsPerWindow(), cfg.resolveMargin(), cfg.resolveHoldMs()), sym, ts);
    anomalies.add(alerts.update(() -> labels(f.alert("IbSymbolErrors", "warning"), w, rack), symbolState.firing(), ts, d -> d
        .summary("IB symbol errors on " + where)
        .description(symF + " symbol errors within " + cfg.windowMs() / 1000 + " s on " + where
            + " (limit " + cfg.symbolErrorsPerWindow() + "): a marginal cable or transceiver")
        .value((double) symF)));

    if (congestionState == null) {
      congestionState = restored(f.alert("RoceCongestion", "warning"), w, rack);
    }
    if (coveredS > 0) {
      Threshold pfcLimit = Threshold.above(cfg.pfcPausePerS(), cfg.resolveMargin(), cfg.resolveHoldMs());
      Threshold ecnLimit = Threshold.above(cfg.ecnMarkedPerS(), cfg.resolveMargin(), cfg.resolveHoldMs());
      Threshold cnpLimit = Threshold.above(cfg.cnpPerS(), cfg.resolveMargin(), cfg.resolveHoldMs());
      double pfcRate = pfc / coveredS;
      double ecnRate = ecn / coveredS;
      double cnpRate = cnp / coveredS;
      boolean congested = pfcLimit.breached(pfcRate) || ecnLimit.breached(ecnRate) || cnpLimit.breached(cnpRate);
      boolean clear = pfcLimit.clear(pfcRate) && ecnLimit.clear(ecnRate) && cnpLimit.clear(cnpRate);
      congestedWindows = congested ? congestedWindows + 1 : 0;
      congestionState.update(congestedWindows >= cfg.congestionWindows(), clear, ts, cfg.resolveHoldMs());
    }
    final double covered = coveredS;
    final long ecnF = ecn;
    final long cnpF = cnp;
    final int windows = congestedWindows;
    anomalies.add(alerts.update(() -> labels(f.alert("RoceCongestion", "warning"), w, rack), congestionState.firing(), ts,
        d -> d.summary("RoCE congestion on " + where)
            .description((covered > 0 ? String.format(Locale.ROOT,
                "PFC pauses %.0f/s (limit %.0f), ECN marks %.0f/s (limit %.0f), CNPs %.0f/s (limit %.0f)",
                pfcF / covered, cfg.pfcPausePerS(), ecnF / covered, cfg.ecnMarkedPerS(), cnpF / covered, cfg.cnpPerS()) : "")
                + " for " + windows + " windows of " + cfg.windowMs() / 1000 + " s on " + where
                + ": check PFC/ECN settings of the switch and the traffic pattern")
            .value((double) pfcF)));
    anomalies.removeIf(a -> a == null);
    return w;
  }

  /** The hysteresis of an alert: firing when this port's tracker says it fires (a state restored from before it). */
  private Hysteresis restored(AnomalyFactory.Draft alert, PortWindow w, String rack) {
    return Hysteresis.restored(alerts.firingCount() > 0 && alerts.isFiring(labels(alert, w, rack)));
  }

  private static AnomalyFactory.Draft labels(AnomalyFactory.Draft d, PortWindow w, String rack) {
    return d.label("cluster", w.cluster).label("node", w.node).label("device", w.device).label("port", w.port)
        .label("rail", w.rail >= 0 ? w.rail : null).context("rack", rack);
  }

  private static long known(long d) {
    return d == CounterDelta.UNKNOWN ? 0 : d;
  }

  private static Long sum(Long a, Long b) {
    if (a == null && b == null) {
      return null;
    }
    return (a == null ? 0 : a) + (b == null ? 0 : b);
  }
}
