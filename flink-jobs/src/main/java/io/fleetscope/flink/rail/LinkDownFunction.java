package io.fleetscope.flink.rail;

import io.fleetscope.avro.IbPortSample;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.ArrivalFunction;

/** The rail analytic's fast path, keyed by port ({@link #keyOf}): {@link PortLinkState} per sample of fleet.ib.v1. */
public final class LinkDownFunction extends ArrivalFunction<IbPortSample, PortLinkState> {
  private static final long serialVersionUID = 1L;
  private final AnomalyFactory factory;

  public LinkDownFunction(String source) {
    super("rail-link-state", PortLinkState.class);
    this.factory = new AnomalyFactory(source);
  }

  /** cluster|node|device|port. */
  public static String keyOf(IbPortSample s) {
    return s.getCluster() + "|" + s.getNode() + "|" + s.getDevice() + "|" + s.getPort();
  }

  /** Whether the sample shows the link down. */
  @Override
  protected long[] signature(IbPortSample s) {
    return new long[] {PortLinkState.down(s) ? 1 : 0};
  }

  @Override
  protected PortLinkState newState() {
    return new PortLinkState();
  }

  @Override
  protected void onRecord(IbPortSample s, PortLinkState state, Decisions d) {
    d.anomaly(state.onSample(s, d.topology().inventory(s.getNode()).map(InventoryRecord::getRack).orElse(null), factory));
  }
}
