package io.fleetscope.flink.thermal;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.ThermalRisk;
import io.fleetscope.flink.core.AlertChange;
import io.fleetscope.flink.core.Alerts;
import io.fleetscope.flink.core.AnomalyFactory;
import io.fleetscope.flink.core.BufferedTickFunction;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.Collector;

/**
 * Keyed by rack: applies the tick's PDU and coolant readings and GPU samples in event-time order,
 * scores every GPU sample with its rack's cooling context ({@link GpuThermalMonitor}), emits one
 * ThermalRisk per GPU and tick (its last sample) and the GpuThermalThrottleRisk / GpuThrottling
 * transitions to {@link TickedKeyedFunction#ANOMALIES}.
 */
public final class RackThermalFunction extends BufferedTickFunction<ThermalInput, ThermalRisk> {
  private static final long serialVersionUID = 1L;
  static final Set<String> CONTEXT_LABELS = Set.of("rack", "model", "driver", "loop");

  private final ThermalRiskSettings cfg;
  private final FacilitySettings facility;
  private final AnomalyFactory factory;
  private transient ValueState<RackThermalState> state;
  private transient ThermalRiskModel model;
  /** Per node, the monitor keys of its GPUs (a cache; not state). */
  private transient Map<String, String[]> gpuKeys;

  public RackThermalFunction(ThermalRiskSettings cfg, FacilitySettings facility, String source) {
    super(TypeInformation.of(ThermalInput.class), "thermal-rack");
    this.cfg = cfg;
    this.facility = facility;
    this.factory = new AnomalyFactory(source);
  }

  @Override
  protected void openState() {
    state = getRuntimeContext().getState(new ValueStateDescriptor<>("thermal-rack",
        new JavaSerializableTypeInfo<>(RackThermalState.class)));
    model = new ThermalRiskModel(cfg);
  }

  @Override
  protected Comparator<ThermalInput> order() {
    return ThermalInput.ORDER;
  }

  @Override
  protected void onTick(long timestamp, List<ThermalInput> records, OnTimerContext ctx, Collector<ThermalRisk> out)
      throws Exception {
    RackThermalState s = state.value();
    if (s == null) {
      s = new RackThermalState(facility.pduReadingMaxAgeS() * 1000);
    }
    // per GPU its last sample and assessment: one ThermalRisk per GPU and tick
    Map<String, Object[]> latest = new TreeMap<>();
    for (ThermalInput i : records) {
      switch (i.kind) {
        case ThermalInput.PDU -> s.power.add(i.device, i.point, i.ts, i.watts);
        case ThermalInput.COOLANT -> s.loops.put(i.loop,
            new RackThermalState.LoopSnapshot(i.ts, i.supplyTempC, i.supplyMaxC, i.flowLpm, i.flowMinLpm));
        default -> {
          String key = gpuKey(i.node, i.gpu);
          GpuThermalMonitor m = s.gpus.computeIfAbsent(key, k -> new GpuThermalMonitor(model));
          CoolingContext cooling = s.cooling(i.loop, i.ts, cfg.contextMaxAgeS() * 1000, i.rackCapacityKw);
          GpuThermalLimits limits = new GpuThermalLimits(i.slowdownTempC, null, i.memMaxTempC, i.tdpW);
          GpuThermalMonitor.Outcome o = m.onSample(sampleOf(i), limits, cooling, () -> labels(i, cooling));
          for (AlertChange c : o.changes()) {
            Anomaly a = Alerts.toAnomaly(factory, s.alerts, c, i.ts, CONTEXT_LABELS);
            if (a != null) {
              ctx.output(TickedKeyedFunction.ANOMALIES, a);
            }
          }
          latest.put(key, new Object[] {i, o.assessment()});
        }
      }
    }
    state.update(s);
    for (Object[] last : latest.values()) {
      out.collect(risk((ThermalInput) last[0], (ThermalAssessment) last[1]));
    }
  }

  /** {@code node/gpu}, the key of a GPU's monitor, built once per GPU rather than once per sample. */
  private String gpuKey(String node, int gpu) {
    if (gpuKeys == null) {
      gpuKeys = new java.util.HashMap<>();
    }
    String[] keys = gpuKeys.computeIfAbsent(node, n -> new String[8]);
    if (gpu < 0 || gpu >= 64) {
      return node + "/" + gpu;
    }
    if (gpu >= keys.length) {
      keys = java.util.Arrays.copyOf(keys, 64);
      gpuKeys.put(node, keys);
    }
    String k = keys[gpu];
    if (k == null) {
      k = node + "/" + gpu;
      keys[gpu] = k;
    }
    return k;
  }

  private static Map<String, String> labels(ThermalInput i, CoolingContext cooling) {
    Map<String, String> l = new LinkedHashMap<>();
    l.put("cluster", i.cluster);
    l.put("node", i.node);
    l.put("gpu", Integer.toString(i.gpu));
    if (!i.rack.startsWith("node:")) {
      l.put("rack", i.rack);
    }
    if (i.model != null) {
      l.put("model", i.model);
    }
    if (cooling.loop() != null) {
      l.put("loop", cooling.loop());
    }
    return l;
  }

  static GpuSample sampleOf(ThermalInput i) {
    GpuSample s = new GpuSample();
    s.setTs(i.ts);
    s.setCluster(i.cluster);
    s.setNode(i.node);
    s.setAgentSeq(i.seq);
    s.setGpu(i.gpu);
    s.setModel(i.model);
    s.setTempC(i.tempC);
    s.setMemTempC(i.memTempC);
    s.setPowerW(i.powerW);
    s.setPowerLimitW(i.powerLimitW);
    s.setThrottleReasons(i.throttleReasons);
    s.setEnergyMj(i.energyMj);
    return s;
  }

  private static ThermalRisk risk(ThermalInput i, ThermalAssessment a) {
    return ThermalRisk.newBuilder()
        .setTs(i.ts)
        .setCluster(i.cluster)
        .setNode(i.node)
        .setGpu(i.gpu)
        .setRack(i.rack.startsWith("node:") ? null : i.rack)
        .setModel(i.model)
        .setScore(a.score())
        .setLevel(a.level())
        .setSecondsToThrottle(a.secondsToThrottle())
        .setDriver(a.driver())
        .setTempC(i.tempC)
        .setHeadroomC(a.headroomC())
        .setSlopeCPerMin(a.slopeCPerMin())
        .setMemTempC(i.memTempC)
        .setPowerRatio(a.powerRatio())
        .build();
  }
}
