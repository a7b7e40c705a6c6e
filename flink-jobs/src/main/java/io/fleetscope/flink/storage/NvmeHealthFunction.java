package io.fleetscope.flink.storage;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.StorageSample;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.BufferedTickFunction;
import io.fleetscope.flink.io.AvroTypeInfo;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.util.Collector;

/** Keyed by node and controller: {@link NvmeHealth} over the controller's samples in event time. */
public final class NvmeHealthFunction extends BufferedTickFunction<StorageSample, Anomaly> {
  private static final long serialVersionUID = 1L;
  private final StorageTierSettings cfg;
  private final AnomalyFactory factory;
  private transient ValueState<State> state;

  static final class State implements Serializable {
    private static final long serialVersionUID = 1L;
    final NvmeHealth health = new NvmeHealth();
    final AlertTracker alerts = new AlertTracker();
  }

  public NvmeHealthFunction(StorageTierSettings cfg, String source) {
    super(AvroTypeInfo.forClass(StorageSample.class), "storage-nvme");
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  public static String keyOf(StorageSample s) {
    return s.getCluster() + "|" + s.getNode() + "|" + s.getDevice();
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("storage-nvme", new JavaSerializableTypeInfo<>(State.class)));
  }

  @Override
  protected Comparator<StorageSample> order() {
    return Comparator.comparingLong(StorageSample::getTs).thenComparingLong(StorageSample::getAgentSeq);
  }

  @Override
  protected void onTick(long timestamp, List<StorageSample> records, OnTimerContext ctx, Collector<Anomaly> out) throws Exception {
    State s = state.value();
    if (s == null) s = new State();
    for (StorageSample r : records) {
      for (AlertChange c : s.health.onSample(r, cfg)) {
        Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, r.getTs(), Set.of());
        if (a != null) out.collect(a);
      }
    }
    state.update(s);
  }
}
