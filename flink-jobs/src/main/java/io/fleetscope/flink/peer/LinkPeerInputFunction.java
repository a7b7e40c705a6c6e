package io.fleetscope.flink.peer;

import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.IbPortSample;
import io.fleetscope.flink.core.NodeAnalytic;
import io.fleetscope.flink.io.Records;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Per port (unit of the IB node stage): per peer window the port's mean transmit rate (Gb/s) and xmit_wait rate from
 * counter deltas, with its peer group, like with like: its rail (the sample's, else the inventory's HCA map) and
 * the job(s) its node's GPUs run (fleet.jobs.v1), so ports are compared with the ports carrying the same job's
 * traffic; a node without a known job groups by rail alone (and compares only the metrics that do not depend on
 * the work). Ports that are not ACTIVE are left out: IbLinkDown covers them.
 */
public final class LinkPeerInputFunction extends NodeAnalytic<IbPortSample, NodeAnalytic.PortUnit, PeerInput, LinkPeerInputFunction.Window> {
  private static final long serialVersionUID = 1L;

  public LinkPeerInputFunction(PeerOutlierSettings cfg) {
    super(Topics.IB, cfg.windowS() * 1000, TypeInformation.of(PeerInput.class), Set.of(IbPortSample.class));
  }

  /** A port's rates across windows, and its sums over the open window (filled slice by slice). */
  public static final class Window implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final PortRateCalculator rates = new PortRateCalculator();
    /** Whether the open window has a sample; then what its first sample said about the port. */
    boolean any;
    String cluster;
    String node;
    String device;
    int port;
    Integer rail;
    double tx;
    double wait;
    int nTx;
    int nWait;
    boolean active = true;

    void add(List<IbPortSample> records) {
      for (IbPortSample s : records) {
        if (!any) {
          any = true;
          cluster = s.getCluster();
          node = s.getNode();
          device = s.getDevice();
          port = s.getPort();
          rail = s.getRail();
        }
        PortRateCalculator.Rates r = rates.onSample(s);
        if (!Records.portActive(s.getState())) {
          active = false;
        }
        if (r == null) continue;
        if (r.txGbps() != null) { tx += r.txGbps(); nTx++; }
        if (r.xmitWaitPerS() != null) { wait += r.xmitWaitPerS(); nWait++; }
      }
    }

    void reset() {
      any = false;
      cluster = null;
      node = null;
      device = null;
      rail = null;
      tx = 0;
      wait = 0;
      nTx = 0;
      nWait = 0;
      active = true;
    }
  }

  /** The node's job as a group term: " job=J", " jobs=A+B" for a node shared by several, "" for none known. */
  static String jobsOf(io.fleetscope.flink.core.Topology t, String node) {
    java.util.TreeSet<String> jobs = new java.util.TreeSet<>();
    t.jobs(node).ifPresent(j -> j.getAllocations().forEach(a -> {
      if (!a.getGpus().isEmpty()) {
        jobs.add(a.getJob());
      }
    }));
    if (jobs.isEmpty()) {
      return "";
    }
    return jobs.size() == 1 ? " job=" + jobs.first() : " jobs=" + String.join("+", jobs);
  }

  @Override
  protected PortUnit unitOf(IbPortSample s) {
    return new PortUnit(s.getDevice(), s.getPort());
  }

  @Override
  protected boolean isUnitOf(PortUnit unit, IbPortSample s) {
    return unit.is(s.getDevice(), s.getPort());
  }

  @Override
  protected boolean foldsSlices() {
    return true;
  }

  @Override
  protected void onSlice(UnitTick<PortUnit, PeerInput> tick, List<IbPortSample> records, UnitState<Window> state) {
    Window w = state.value() != null ? state.value() : new Window();
    w.add(records);
    state.update(w);
  }

  @Override
  protected void onTick(UnitTick<PortUnit, PeerInput> tick, List<IbPortSample> records, UnitState<Window> state)
      throws Exception {
    Window w = state.value();
    if (w == null) {
      if (records.isEmpty()) {
        return;
      }
      w = new Window();
    }
    w.add(records);
    if (!w.any) {
      return;
    }
    String node = w.node;
    String device = w.device;
    int port = w.port;
    Integer rail = w.rail;
    if (rail == null) {
      rail = tick.topology().inventory(node).flatMap(i -> i.getHcas().stream()
          .filter(h -> h.getDevice().equals(device) && h.getPort() == port)
          .map(HcaInfo::getRail).filter(x -> x != null).findFirst()).orElse(null);
    }
    boolean skip = !w.active || rail == null || (w.nTx == 0 && w.nWait == 0);
    PeerInput p = new PeerInput();
    p.kind = PeerInput.LINK;
    p.cluster = w.cluster;
    p.node = node;
    p.device = device;
    p.port = port;
    p.rail = rail;
    p.rack = tick.topology().rackOf(node).orElse(null);
    p.member = node + "/" + device + "/" + port;
    p.group = "rail=" + rail + jobsOf(tick.topology(), node);
    p.windowEnd = tick.end();
    p.txGbps = w.nTx == 0 ? null : w.tx / w.nTx;
    p.xmitWaitPerS = w.nWait == 0 ? null : w.wait / w.nWait;
    w.reset();
    state.update(w);
    if (!skip) {
      tick.emit(p);
    }
  }
}
