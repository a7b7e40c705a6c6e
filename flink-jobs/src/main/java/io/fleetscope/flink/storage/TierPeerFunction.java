package io.fleetscope.flink.storage;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.BufferedTickFunction;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.util.Collector;

/**
 * Keyed by cluster and parallel-file-system tier: {@link TierPeers} over every client's samples,
 * evaluated at each sample time in event-time order. Emits the tier's {@link TierState} whenever it
 * changes (the checkpoint analytic's input) and the StorageTierDegraded transitions on
 * {@link TickedKeyedFunction#ANOMALIES}.
 */
public final class TierPeerFunction extends BufferedTickFunction<StorageSample, TierState> {
  private static final long serialVersionUID = 1L;
  private final StorageTierSettings cfg;
  private final AnomalyFactory factory;
  private transient ValueState<State> state;

  static final class State implements Serializable {
    private static final long serialVersionUID = 1L;
    final TierPeers peers = new TierPeers();
    final AlertTracker alerts = new AlertTracker();
    Boolean lastDegraded;
  }

  public TierPeerFunction(StorageTierSettings cfg, String source) {
    super(AvroTypeInfo.forClass(StorageSample.class), "storage-tier");
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  public static String keyOf(StorageSample s) {
    return s.getCluster() + "|" + s.getTier();
  }

  /** Local NVMe is per node; every other tier is shared by its clients. */
  public static boolean shared(StorageSample s) {
    return !"local-nvme".equals(s.getTier());
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("storage-tier", new JavaSerializableTypeInfo<>(State.class)));
  }

  @Override
  protected Comparator<StorageSample> order() {
    return Comparator.comparingLong(StorageSample::getTs).thenComparing(s -> s.getNode().toString())
        .thenComparing(s -> s.getDevice().toString()).thenComparingLong(StorageSample::getAgentSeq);
  }

  @Override
  protected void onTick(long timestamp, List<StorageSample> records, OnTimerContext ctx, Collector<TierState> out) throws Exception {
    State s = state.value();
    if (s == null) s = new State();
    for (StorageSample r : records) {
      s.peers.onSample(r, cfg);
    }
    for (AlertChange c : s.peers.evaluate(timestamp, cfg)) {
      Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, timestamp, Set.of());
      if (a != null) ctx.output(TickedKeyedFunction.ANOMALIES, a);
    }
    boolean degraded = s.peers.degraded();
    if (s.lastDegraded == null || s.lastDegraded != degraded) {
      StorageSample first = records.get(0);
      out.collect(TierState.of(first.getCluster(), first.getTier(), timestamp, degraded, s.peers.median(), s.peers.clientCount()));
      s.lastDegraded = degraded;
    }
    state.update(s);
  }
}
