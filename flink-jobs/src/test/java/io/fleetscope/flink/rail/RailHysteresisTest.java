package io.fleetscope.flink.rail;

import static io.fleetscope.flink.testing.Fleet.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.testing.Fleet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hysteresis of the port and rail alerts (defaults: resolve 20 % inside the limit, held 30 s): a
 * value hovering at its limit for 10 minutes of 10 s windows is one alert; a real recovery resolves
 * after the hold.
 */
class RailHysteresisTest {
  private final RailConfig cfg = AnalyticsConfig.defaults().section("rail", RailConfig.class);
  private final AnomalyFactory f = new AnomalyFactory("rail");

  /** The sample of one port at {@code second}, from the builder of a healthy one. */
  private interface Sample {
    IbPortSample.Builder at(int second, long seq, IbPortSample.Builder b);
  }

  private List<String> run(PortAnalyzer a, int windows, Sample sample) {
    List<String> out = new ArrayList<>();
    long seq = 0;
    for (int w = 0; w < windows; w++) {
      List<IbPortSample> samples = new ArrayList<>();
      for (int s = w * 10; s < w * 10 + 10; s++) {
        samples.add(sample.at(s, seq, Fleet.ib("n1", 0, t(s), seq++)).build());
      }
      List<Anomaly> anomalies = new ArrayList<>();
      a.window(samples, t(w * 10 + 10), 400, "r1", cfg, f, anomalies);
      anomalies.forEach(x -> out.add(x.getLabels().get("alertname") + " " + x.getStatus() + " " + (x.getTs() - t(0)) / 1000));
    }
    return out;
  }

  @Test
  void symbolErrorsHoveringAtTheLimitAreOneAlertAndResolveAfterTheHold() {
    // 10 symbol errors per window (the limit) and 9 in every other window for 10 minutes, then none
    long[] sym = {0};
    List<String> got = run(new PortAnalyzer(), 64, (s, seq, b) -> {
      int w = s / 10;
      if (s % 10 == 0 && s > 0 && w < 60) {
        sym[0] += w % 2 == 0 ? 10 : 9;
      }
      return b.setSymbolErrors(sym[0]);
    });
    // the first window with 10 is the one ending at 29 s (its first sample counts the increase at 20 s)
    assertThat(got).containsExactly("IbSymbolErrors firing 29", "IbSymbolErrors resolved 639");
  }

  @Test
  void congestionHoveringAtItsRateLimitIsOneAlert() {
    long[] pfc = {0};
    List<String> got = run(new PortAnalyzer(), 60, (s, seq, b) -> {
      pfc[0] += (s / 10) % 2 == 0 ? 1_050 : 950; // 1,050/s and 950/s in turn, limit 1,000/s
      return b.setLinkLayer("Ethernet").setPfcPauseRx(pfc[0]).setPfcPauseTx(0L).setEcnMarkedPkts(0L)
          .setCnpSent(0L).setCnpHandled(0L);
    });
    assertThat(got).containsExactly("RoceCongestion firing 9");
  }

  @Test
  void aLinkThatKeepsRenegotiatingItsRateIsOneDegradedAlert() {
    List<String> got = run(new PortAnalyzer(), 64, (s, seq, b) ->
        b.setRateGbps(s < 600 && (s / 10) % 2 == 0 ? 200.0 : 400.0));
    // degraded in every other window for 10 minutes; the last degraded window ends with the sample
    // at 589 s, the clean run starts at 599 s and has lasted the 30 s hold at 629 s
    assertThat(got).containsExactly("IbLinkDegraded firing 9", "IbLinkDegraded resolved 629");
  }

  @Test
  void railImbalanceHoveringAtItsLimitIsOneAlertAndARecoveryResolvesAfterTheHold() {
    RailAggregator a = new RailAggregator();
    List<String> got = new ArrayList<>();
    for (int w = 0; w < 70; w++) {
      long end = t(w * 10 + 10);
      // rails 0-2 at 300 Gb/s; rail 3 alternates 31 % and 29 % below the mean for 10 minutes, then level
      double low = w < 60 ? (w % 2 == 0 ? 0.60 : 0.64) : 1.0;
      List<PortWindow> ports = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        PortWindow p = new PortWindow();
        p.cluster = "c1";
        p.node = "n1";
        p.device = "mlx5_" + r;
        p.port = 1;
        p.rail = r;
        p.windowEnd = end;
        p.lineRateGbps = 400;
        p.up = true;
        p.txBytes = (long) (300e9 / 8 * 10 * (r == 3 ? low : 1.0));
        ports.add(p);
      }
      List<Anomaly> anomalies = new ArrayList<>();
      a.window("c1", end, ports, cfg, f, anomalies);
      anomalies.forEach(x -> got.add(x.getLabels().get("alertname") + " rail=" + x.getLabels().get("rail") + " "
          + x.getStatus() + " " + (x.getTs() - t(0)) / 1000));
    }
    // the mean includes rail 3: at 0.60 of the others it is 33 % below the mean (past the 30 % limit),
    // at 0.64 29.7 % below (inside the limit, but not clearly: that needs less than 24 %)
    assertThat(got).containsExactly("RailImbalance rail=3 firing 10", "RailImbalance rail=3 resolved 640");
  }
}
