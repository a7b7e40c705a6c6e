package io.fleetscope.flink.fleet;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.AlertTracker;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.BufferedTickFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

/** Keyed by job: JobMixedGpuModels over the job's allocations on all its nodes. */
public final class JobMixFunction extends BufferedTickFunction<FleetInput, Anomaly> {
  private static final long serialVersionUID = 1L;
  static final Set<String> CONTEXT_LABELS = Set.of("models");
  private final FleetHygieneSettings cfg;
  private final AnomalyFactory factory;
  private transient ValueState<JobState> state;

  static final class JobState implements Serializable {
    private static final long serialVersionUID = 1L;
    final JobModelMix mix;
    final TreeMap<String, HashMap<Integer, String>> models = new TreeMap<>();
    final AlertTracker alerts = new AlertTracker();

    JobState(FleetHygieneSettings cfg) {
      mix = new JobModelMix(new ModelRanking(cfg.slowestFirst()));
    }
  }

  public JobMixFunction(FleetHygieneSettings cfg, String source) {
    super(TypeInformation.of(FleetInput.class), "fleet-job");
    this.cfg = cfg;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("fleet-job",
        new JavaSerializableTypeInfo<>(JobState.class)));
  }

  @Override
  protected Comparator<FleetInput> order() {
    return FleetInput.ALLOCATION_ORDER;
  }

  @Override
  protected void onTick(long timestamp, List<FleetInput> records, OnTimerContext ctx, Collector<Anomaly> out)
      throws Exception {
    JobState s = state.value();
    if (s == null) {
      s = new JobState(cfg);
    }
    for (FleetInput f : records) {
      HashMap<Integer, String> m = new HashMap<>();
      for (int i = 0; i < f.gpus.length; i++) {
        m.put(f.gpus[i], f.models[i]);
      }
      if (m.isEmpty()) {
        s.models.remove(f.node);
      } else {
        s.models.put(f.node, m);
      }
      final Map<String, HashMap<Integer, String>> models = s.models;
      List<AlertChange> changes = s.mix.onAllocation(f.cluster, f.job, f.node,
          Arrays.stream(f.gpus).boxed().toList(),
          (node, gpu) -> models.containsKey(node) ? models.get(node).get(gpu) : null);
      for (AlertChange c : changes) {
        Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, f.ts, CONTEXT_LABELS);
        if (a != null) {
          out.collect(a);
        }
      }
    }
    if (s.mix.empty() && !s.mix.firing()) {
      state.clear();
    } else {
      state.update(s);
    }
  }
}
