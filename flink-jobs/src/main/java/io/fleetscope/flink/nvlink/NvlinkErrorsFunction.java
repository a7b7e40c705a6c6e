package io.fleetscope.flink.nvlink;

import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.ArrivalFunction;

/**
 * NvlinkErrorsRising, keyed by link ({@link NvlinkDownFunction#keyOf}): {@link NvlinkErrorTrend}
 * per sample. Every sample counts (no signature): time passing without new errors is what resolves.
 */
public final class NvlinkErrorsFunction extends ArrivalFunction<NvlinkSample, NvlinkErrorTrend> {
  private static final long serialVersionUID = 1L;
  private final AnomalyFactory factory;
  private final NvlinkSettings settings;

  public NvlinkErrorsFunction(NvlinkSettings settings, String source) {
    super("nvlink-error-trend", NvlinkErrorTrend.class);
    this.settings = settings;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected long[] signature(NvlinkSample s) {
    return null;
  }

  @Override
  protected NvlinkErrorTrend newState() {
    return new NvlinkErrorTrend();
  }

  @Override
  protected void onRecord(NvlinkSample s, NvlinkErrorTrend state, Decisions d) {
    d.anomaly(state.onSample(s, settings, d.topology().inventory(s.getNode()).map(InventoryRecord::getRack).orElse(null), factory));
  }
}
