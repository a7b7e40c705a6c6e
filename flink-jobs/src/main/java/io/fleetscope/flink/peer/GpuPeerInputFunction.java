package io.fleetscope.flink.peer;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.core.WholeNodeAnalytic;
import io.fleetscope.flink.io.JavaSerializableTypeInfo;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Per node (in the GPU node stage): per GPU and peer window the means of temperature, power and SM clock, with the
 * GPU's peer group, like with like: its job (fleet.jobs.v1) and model, else its rack and model, else its node and
 * model. A group without a job compares only the metrics that do not depend on the work
 * ({@link PeerOutlierSettings#jobOnlyMetrics}).
 */
public final class GpuPeerInputFunction extends WholeNodeAnalytic<GpuSample, PeerInput, GpuPeerInputFunction.Window> {
  private static final long serialVersionUID = 1L;

  public GpuPeerInputFunction(PeerOutlierSettings cfg) {
    super(Topics.GPU, cfg.windowS() * 1000, TypeInformation.of(PeerInput.class), Set.of(GpuSample.class));
  }

  /** The sums of the node's GPUs over the open window, by GPU index (filled slice by slice). */
  public static final class Window implements JavaSerializableTypeInfo.DeepCopy<Window> {
    private static final long serialVersionUID = 1L;
    final TreeMap<Integer, Sums> byGpu = new TreeMap<>();

    @Override
    public Window deepCopy() {
      Window c = new Window();
      byGpu.forEach((g, v) -> c.byGpu.put(g, v.copy()));
      return c;
    }
  }

  /** One GPU's sums over the window, and what its first sample said about it. */
  static final class Sums implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    String cluster;
    String node;
    String model;
    double tempSum;
    double powerSum;
    double smClockSum;
    int tempCount;
    int powerCount;
    int smClockCount;

    Sums copy() {
      Sums c = new Sums();
      c.cluster = cluster;
      c.node = node;
      c.model = model;
      c.tempSum = tempSum;
      c.powerSum = powerSum;
      c.smClockSum = smClockSum;
      c.tempCount = tempCount;
      c.powerCount = powerCount;
      c.smClockCount = smClockCount;
      return c;
    }
  }

  @Override
  protected boolean foldsSlices() {
    return true;
  }

  @Override
  protected void onSlice(UnitTick<String, PeerInput> tick, List<GpuSample> records, UnitState<Window> state) {
    Window w = state.value() != null ? state.value() : new Window();
    add(w, records);
    state.update(w);
  }

  @Override
  protected void onTick(UnitTick<String, PeerInput> tick, List<GpuSample> records, UnitState<Window> state) {
    Window w = state.value() != null ? state.value() : new Window();
    add(w, records);
    Topology t = tick.topology();
    w.byGpu.forEach((gpu, sums) -> tick.emit(input(t, gpu, sums, tick.end())));
    state.update(null);
  }

  private static void add(Window w, List<GpuSample> records) {
    for (GpuSample s : records) {
      Sums p = w.byGpu.get(s.getGpu());
      if (p == null) {
        p = new Sums();
        p.cluster = s.getCluster();
        p.node = s.getNode();
        p.model = s.getModel();
        w.byGpu.put(s.getGpu(), p);
      }
      if (s.getTempC() != null) { p.tempSum += s.getTempC(); p.tempCount++; }
      if (s.getPowerW() != null) { p.powerSum += s.getPowerW(); p.powerCount++; }
      if (s.getSmClockMhz() != null) { p.smClockSum += s.getSmClockMhz(); p.smClockCount++; }
    }
  }

  private static PeerInput input(Topology t, int gpu, Sums s, long windowEnd) {
    PeerInput p = new PeerInput();
    p.kind = PeerInput.GPU;
    p.cluster = s.cluster;
    p.node = s.node;
    p.gpu = gpu;
    p.member = s.node + "/" + gpu;
    p.windowEnd = windowEnd;
    p.tempSum = s.tempSum;
    p.tempCount = s.tempCount;
    p.powerSum = s.powerSum;
    p.powerCount = s.powerCount;
    p.smClockSum = s.smClockSum;
    p.smClockCount = s.smClockCount;
    p.rack = t.rackOf(s.node).orElse(null);
    Optional<String> job = t.jobOf(s.node, gpu);
    String model = t.gpu(s.node, gpu).map(g -> g.getModel()).filter(m -> m != null).orElse(s.model);
    if (job.isPresent()) {
      p.group = "job=" + job.get() + " model=" + model;
    } else if (p.rack != null) {
      p.group = "rack=" + p.rack + " model=" + model;
    } else {
      p.group = "node=" + s.node + " model=" + model;
    }
    return p;
  }
}
