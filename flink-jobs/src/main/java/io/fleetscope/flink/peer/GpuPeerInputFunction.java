package io.fleetscope.flink.peer;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.NodeAnalytic;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Per node (in the GPU node stage): per GPU and peer window the means of temperature, power and SM clock, with the
 * GPU's peer group: its job (fleet.jobs.v1), else its rack and model, else its node and model.
 */
public final class GpuPeerInputFunction extends NodeAnalytic<GpuSample, PeerInput, java.io.Serializable> {
  private static final long serialVersionUID = 1L;

  public GpuPeerInputFunction(PeerOutlierSettings cfg) {
    super(Topics.GPU, cfg.windowS() * 1000, TypeInformation.of(PeerInput.class), Set.of(GpuSample.class));
  }

  @Override
  protected Object unitOf(GpuSample s) {
    return NODE;
  }

  @Override
  protected boolean isUnitOf(Object unit, GpuSample r) {
    return true;
  }

  @Override
  protected void onTick(TickedKeyedFunction.Tick<PeerInput> tick, List<GpuSample> records, UnitState<java.io.Serializable> state) {
    Map<Integer, PeerInput> byGpu = new TreeMap<>();
    Topology t = tick.topology();
    for (GpuSample s : records) {
      PeerInput p = byGpu.computeIfAbsent(s.getGpu(), g -> start(t, s, tick.end()));
      if (s.getTempC() != null) { p.tempSum += s.getTempC(); p.tempCount++; }
      if (s.getPowerW() != null) { p.powerSum += s.getPowerW(); p.powerCount++; }
      if (s.getSmClockMhz() != null) { p.smClockSum += s.getSmClockMhz(); p.smClockCount++; }
    }
    byGpu.values().forEach(tick::emit);
  }

  private static PeerInput start(Topology t, GpuSample s, long windowEnd) {
    PeerInput p = new PeerInput();
    p.kind = PeerInput.GPU;
    p.cluster = s.getCluster();
    p.node = s.getNode();
    p.gpu = s.getGpu();
    p.member = s.getNode() + "/" + s.getGpu();
    p.windowEnd = windowEnd;
    p.rack = t.rackOf(s.getNode()).orElse(null);
    Optional<String> job = t.jobOf(s.getNode(), s.getGpu());
    String model = t.gpu(s.getNode(), s.getGpu()).map(g -> g.getModel()).filter(m -> m != null).orElse(s.getModel());
    if (job.isPresent()) {
      p.group = "job=" + job.get();
    } else if (p.rack != null) {
      p.group = "rack=" + p.rack + " model=" + model;
    } else {
      p.group = "node=" + s.getNode() + " model=" + model;
    }
    return p;
  }
}
