package io.fleetscope.flink.peer;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.core.Topology;
import io.fleetscope.flink.core.WallClock;
import io.fleetscope.schemas.Topics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Keyed by node: per GPU and peer window the means of temperature, power and SM clock, with the
 * GPU's peer group: its job (fleet.jobs.v1), else its rack and model, else its node and model.
 */
public final class GpuPeerInputFunction extends TickedKeyedFunction<GpuSample, PeerInput> {
  private static final long serialVersionUID = 1L;

  public GpuPeerInputFunction(PeerOutlierSettings cfg, PipelineConfig pipeline, WallClock clock) {
    super(Topics.GPU, GpuSample.class, cfg.windowS() * 1000, pipeline, clock);
  }

  public static String keyOf(GpuSample s) {
    return s.getCluster() + "|" + s.getNode();
  }

  @Override
  protected void onTick(Tick<PeerInput> tick, List<GpuSample> records) {
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
