package io.fleetscope.flink.rail;

import static io.fleetscope.flink.testing.Fleet.t;

import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.testing.Fleet;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Two nodes (n1, n2) x 4 rails, one sample per port per second for 100 s, every port sending
 * 25 GB/s (200 Gb/s). Faults: n2 rail 3 link down from 30 s to 50 s (link_downed +1); n1 rail 1
 * +5 symbol errors per second from 20 s to 39 s; an agent restart (counter reset) of n1 rail 0 at
 * 35 s. Inventory: n1, n2 with 4 GPUs / 4 rails; n3 with 8 GPUs on 4 rails (shared HCAs). The
 * 50 s after the last fault ends leave room for the alerts' 30 s resolve hold.
 */
public final class RailScenario {
  static final long BPS = 25_000_000_000L;

  private RailScenario() {}

  public static List<SpecificRecord> records(boolean faults) {
    List<SpecificRecord> out = new ArrayList<>();
    out.add(Fleet.node("n1", "r1", 4, 4, t(-60)));
    out.add(Fleet.node("n2", "r1", 4, 4, t(-60)));
    if (faults) {
      out.add(Fleet.node("n3", "r2", 8, 4, t(-60)));
    }
    long seq = 0;
    for (String node : List.of("n1", "n2")) {
      for (int rail = 0; rail < 4; rail++) {
        long tx = 1_000_000L * rail;
        long sym = 0;
        long downed = 0;
        for (int s = 0; s < 100; s++) {
          boolean down = faults && node.equals("n2") && rail == 3 && s >= 30 && s < 50;
          if (s > 0 && !down) {
            tx += BPS;
          }
          if (faults && node.equals("n2") && rail == 3 && s == 30) {
            downed++;
          }
          if (faults && node.equals("n1") && rail == 1 && s >= 20 && s < 40) {
            sym += 5;
          }
          long reported = tx;
          if (faults && node.equals("n1") && rail == 0 && s >= 35) {
            reported = BPS * (s - 34); // restarted from 0 at 34 s
          }
          IbPortSample.Builder b = Fleet.ib(node, rail, t(s), seq++).setXmitBytes(reported).setRcvBytes(reported / 2)
              .setSymbolErrors(sym).setLinkDowned(downed);
          if (down) {
            b.setState("DOWN").setPhysState("Disabled");
          }
          out.add(b.build());
        }
      }
    }
    out.sort(java.util.Comparator.comparingLong(io.fleetscope.flink.io.Records::ts));
    return out;
  }
}
