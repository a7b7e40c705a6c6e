package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuMigSample;
import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The {@code <mig_devices>} block of one {@code <gpu>} of {@code nvidia-smi -q -x} -> one
 * {@link GpuMigSample} per {@code <mig_device>}: its index, GPU and compute instance ids,
 * multiprocessor count, volatile SRAM uncorrectable ECC count and its (shared) frame-buffer
 * memory slice. The XML names neither the profile nor the MIG UUID; {@link MigListing} adds them
 * from {@code nvidia-smi -L}. A GPU with MIG off has no block, one with MIG on and no instance yet
 * has {@code <mig_devices>None</mig_devices>}: both give no record.
 */
public final class NvidiaSmiMigXml {
  private NvidiaSmiMigXml() {}

  static List<GpuMigSample> of(Element gpu, int index, String gpuUuid, CollectContext ctx) {
    List<GpuMigSample> out = new ArrayList<>();
    Element devices = NvidiaSmiXmlParser.child(gpu, "mig_devices");
    if (devices == null) return out;
    for (Node n = devices.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (!(n instanceof Element d) || !d.getTagName().equals("mig_device")) continue;
      Long gi = Values.lng(NvidiaSmiXmlParser.text(NvidiaSmiXmlParser.child(d, "gpu_instance_id")));
      if (gi == null) continue; // a device without its GPU instance id cannot be told apart from the others
      Long ci = Values.lng(NvidiaSmiXmlParser.text(NvidiaSmiXmlParser.child(d, "compute_instance_id")));
      Long dev = Values.lng(NvidiaSmiXmlParser.text(NvidiaSmiXmlParser.child(d, "index")));
      Long sms = Values.lng(NvidiaSmiXmlParser.text(NvidiaSmiXmlParser.path(d, "device_attributes", "shared", "multiprocessor_count")));
      out.add(GpuMigSample.newBuilder()
          .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(NvidiaSmiXmlParser.SOURCE)
          .setGpu(index).setGpuUuid(gpuUuid)
          .setGpuInstanceId(gi.intValue())
          .setComputeInstanceId(ci == null ? null : ci.intValue())
          .setMigDevice(dev == null ? null : dev.intValue())
          .setSmCount(sms == null ? null : sms.intValue())
          .setMemUsedMib(Values.dbl(NvidiaSmiXmlParser.text(NvidiaSmiXmlParser.path(d, "fb_memory_usage", "used"))))
          .setMemTotalMib(Values.dbl(NvidiaSmiXmlParser.text(NvidiaSmiXmlParser.path(d, "fb_memory_usage", "total"))))
          .setEccSramUncorrectable(Values.lng(NvidiaSmiXmlParser.text(
              NvidiaSmiXmlParser.path(d, "ecc_error_count", "volatile_count", "sram_uncorrectable"))))
          .build());
    }
    return out;
  }
}
