package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.config.CommandConfig;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuMigSample;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code nvidia-smi -q -x} and parses it: one fleet.gpu.v1 sample per physical GPU and, for a
 * GPU in MIG mode, one fleet.gpu.mig.v1 sample per MIG device. The MIG profile and UUID come from
 * {@code nvidia-smi -L}, run again only when the MIG layout (GPU, device, GPU and compute instance)
 * changes, not every round.
 */
public final class NvidiaSmiXmlCollector implements Collector {
  /** {@code nvidia_smi_xml} section. */
  public static final class Config extends CommandConfig {
    /**
     * Lists the MIG devices with their profile and UUID ({@code nvidia-smi -L}); run only when a GPU
     * is in MIG mode. [] leaves profile and uuid of the MIG samples null. Default nvidia-smi -L.
     */
    public List<String> migListCommand = new ArrayList<>(List.of("nvidia-smi", "-L"));

    public Config() {
      command = new ArrayList<>(List.of("nvidia-smi", "-q", "-x"));
    }
  }

  private static final Logger log = LoggerFactory.getLogger(NvidiaSmiXmlCollector.class);

  private final Config config;
  private final AgentEnv env;
  private List<NvidiaSmiListParser.ListedGpu> listing = List.of();
  private List<String> listedLayout = List.of();

  public NvidiaSmiXmlCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
  }

  @Override
  public String name() {
    return "nvidia_smi_xml";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    String xml = env.commands().runChecked(config.command, config.effectiveTimeout(env.agent())).stdoutText();
    List<AgentRecord> recs = new ArrayList<>();
    List<GpuMigSample> mig = new ArrayList<>();
    for (NvidiaSmiXmlParser.Gpu g : NvidiaSmiXmlParser.parse(xml, ctx)) {
      recs.add(new AgentRecord(Topics.GPU, ctx.node(), g.sample()));
      mig.addAll(g.migDevices());
    }
    for (GpuMigSample m : labelled(mig)) recs.add(new AgentRecord(Topics.GPU_MIG, ctx.node(), m));
    return recs;
  }

  private List<GpuMigSample> labelled(List<GpuMigSample> mig) throws InterruptedException {
    if (mig.isEmpty()) return mig;
    List<GpuMigSample> out = MigListing.label(mig, listing);
    List<String> layout = layout(mig);
    if (config.migListCommand.isEmpty() || !MigListing.incomplete(out) || layout.equals(listedLayout)) return out;
    listedLayout = layout;
    try {
      listing = NvidiaSmiListParser.parse(env.commands().runChecked(config.migListCommand, config.effectiveTimeout(env.agent())).stdoutText());
      out = MigListing.label(mig, listing);
    } catch (IOException | TimeoutException e) {
      // the samples still go out, without profile and UUID; listed again when the layout changes
      log.warn("nvidia_smi_xml mig_list_failed command=\"{}\" reason=\"{}\"", String.join(" ", config.migListCommand), e.getMessage());
    }
    if (MigListing.incomplete(out)) {
      log.warn("nvidia_smi_xml mig_devices_unlisted count={} reason=\"not in the MIG listing; profile and uuid left empty\"",
          out.stream().filter(s -> s.getProfile() == null).count());
    }
    return out;
  }

  /** GPU/device/GI/CI of every MIG sample: what a MIG reconfiguration changes. */
  static List<String> layout(List<GpuMigSample> mig) {
    return mig.stream().map(s -> s.getGpu() + "/" + s.getMigDevice() + "/" + s.getGpuInstanceId() + "/" + s.getComputeInstanceId()).toList();
  }
}
