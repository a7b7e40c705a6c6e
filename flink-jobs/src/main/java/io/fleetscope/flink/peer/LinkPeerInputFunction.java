package io.fleetscope.flink.peer;

import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.core.NodeAnalytic;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Per port (unit of the IB node stage): per peer window the port's mean transmit rate (Gb/s) and xmit_wait rate from
 * counter deltas, with its rail (the sample's, else the inventory's HCA map) as its peer group.
 * Ports that are not ACTIVE are left out: IbLinkDown covers them.
 */
public final class LinkPeerInputFunction extends NodeAnalytic<IbPortSample, PeerInput, PortRateCalculator> {
  private static final long serialVersionUID = 1L;

  public LinkPeerInputFunction(PeerOutlierSettings cfg) {
    super(Topics.IB, cfg.windowS() * 1000, TypeInformation.of(PeerInput.class), Set.of(IbPortSample.class));
  }

  @Override
  protected Object unitOf(IbPortSample s) {
    return new PortUnit(s.getDevice(), s.getPort());
  }

  @Override
  protected boolean isUnitOf(Object unit, IbPortSample s) {
    return ((PortUnit) unit).is(s.getDevice(), s.getPort());
  }

  @Override
  protected void onTick(TickedKeyedFunction.Tick<PeerInput> tick, List<IbPortSample> records, UnitState<PortRateCalculator> rates)
      throws Exception {
    if (records.isEmpty()) {
      return;
    }
    PortRateCalculator calc = rates.value();
    if (calc == null) {
      calc = new PortRateCalculator();
    }
    double tx = 0, wait = 0;
    int nTx = 0, nWait = 0;
    boolean active = true;
    for (IbPortSample s : records) {
      PortRateCalculator.Rates r = calc.onSample(s);
      if (s.getState() != null && !s.getState().toUpperCase(Locale.ROOT).contains("ACTIVE")) {
        active = false;
      }
      if (r == null) continue;
      if (r.txGbps() != null) { tx += r.txGbps(); nTx++; }
      if (r.xmitWaitPerS() != null) { wait += r.xmitWaitPerS(); nWait++; }
    }
    rates.update(calc);
    IbPortSample first = records.get(0);
    Integer rail = first.getRail();
    if (rail == null) {
      rail = tick.topology().inventory(first.getNode()).flatMap(i -> i.getHcas().stream()
          .filter(h -> h.getDevice().equals(first.getDevice()) && h.getPort() == first.getPort())
          .map(HcaInfo::getRail).filter(x -> x != null).findFirst()).orElse(null);
    }
    if (!active || rail == null || (nTx == 0 && nWait == 0)) {
      return;
    }
    PeerInput p = new PeerInput();
    p.kind = PeerInput.LINK;
    p.cluster = first.getCluster();
    p.node = first.getNode();
    p.device = first.getDevice();
    p.port = first.getPort();
    p.rail = rail;
    p.rack = tick.topology().rackOf(first.getNode()).orElse(null);
    p.member = first.getNode() + "/" + first.getDevice() + "/" + first.getPort();
    p.group = "rail=" + rail;
    p.windowEnd = tick.end();
    p.txGbps = nTx == 0 ? null : tx / nTx;
    p.xmitWaitPerS = nWait == 0 ? null : wait / nWait;
    tick.emit(p);
  }
}
