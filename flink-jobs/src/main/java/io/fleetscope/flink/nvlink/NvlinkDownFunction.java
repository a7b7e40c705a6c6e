package io.fleetscope.flink.nvlink;

import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.ArrivalFunction;
import io.fleetscope.flink.core.Topology;

/** NvlinkDown on the fast path, keyed by link ({@link #keyOf}): {@link NvlinkLinkState} per sample of fleet.nvlink.v1. */
public final class NvlinkDownFunction extends ArrivalFunction<NvlinkSample, NvlinkLinkState> {
  private static final long serialVersionUID = 1L;
  private final AnomalyFactory factory;
  private final NvlinkSettings settings;

  public NvlinkDownFunction(NvlinkSettings settings, String source) {
    super("nvlink-link-state", NvlinkLinkState.class);
    this.settings = settings;
    this.factory = new AnomalyFactory(source);
  }

  /** cluster|node|gpu|link. */
  public static String keyOf(NvlinkSample s) {
    return s.getCluster() + "|" + s.getNode() + "|" + s.getGpu() + "|" + s.getLink();
  }

  /** Links GPU {@code gpu} of {@code node} should have up: the inventory's count, else the model table's; null when unknown. */
  static Integer expectedLinks(Topology t, String node, int gpu, NvlinkSettings c) {
    GpuInfo g = t.gpu(node, gpu).orElse(null);
    if (g == null) {
      return null;
    }
    return g.getNvlinkLinks() != null ? g.getNvlinkLinks() : c.expectedLinks(g.getModel());
  }

  @Override
  protected long[] signature(NvlinkSample s) {
    return new long[] {NvlinkLinkState.stateCode(s)};
  }

  @Override
  protected NvlinkLinkState newState() {
    return new NvlinkLinkState();
  }

  @Override
  protected void onRecord(NvlinkSample s, NvlinkLinkState state, Decisions d) {
    Topology t = d.topology();
    d.anomaly(state.onSample(s, expectedLinks(t, s.getNode(), s.getGpu(), settings),
        t.inventory(s.getNode()).map(InventoryRecord::getRack).orElse(null), factory));
  }
}
