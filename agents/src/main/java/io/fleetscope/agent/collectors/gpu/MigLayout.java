package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuMigSample;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;

/**
 * The GPUs of a node and the MIG devices of each, from {@code nvidia-smi -q -x} (GPU index, device
 * minor number, GPU and compute instance ids, MIG device index) and, where given, {@code nvidia-smi
 * -L} (MIG profile and UUID, matched by {@link MigListing}). What a scheduler's device ids are
 * resolved against; pure.
 */
public record MigLayout(List<Gpu> gpus) {
  /** One MIG device: its GPU, GI, CI (null when unknown), MIG device index, profile and UUID (null without a listing). */
  public record Device(int gpu, int gpuInstanceId, Integer computeInstanceId, Integer migDevice, String profile, String uuid) {}

  /** One GPU: its index, its device minor number ({@code /dev/nvidiaN}), its UUID and its MIG devices (empty when MIG is off). */
  public record Gpu(int index, int minor, String uuid, List<Device> migDevices) {
    public boolean migMode() {
      return !migDevices.isEmpty();
    }
  }

  /** No GPU known. */
  public static final MigLayout EMPTY = new MigLayout(List.of());

  /** The layout in {@code xml} ({@code nvidia-smi -q -x}), labelled from {@code listing} ({@code nvidia-smi -L}; null or blank for none). */
  public static MigLayout parse(String xml, String listing) throws Exception {
    List<NvidiaSmiXmlParser.Gpu> parsed = NvidiaSmiXmlParser.parse(xml, new CollectContext(0, "", ""));
    List<Integer> minors = minors(xml);
    List<NvidiaSmiListParser.ListedGpu> listed = listing == null || listing.isBlank() ? List.of() : NvidiaSmiListParser.parse(listing);
    List<Gpu> out = new ArrayList<>();
    for (int i = 0; i < parsed.size(); i++) {
      NvidiaSmiXmlParser.Gpu g = parsed.get(i);
      List<Device> devices = new ArrayList<>();
      for (GpuMigSample s : MigListing.label(g.migDevices(), listed)) {
        devices.add(new Device(s.getGpu(), s.getGpuInstanceId(), s.getComputeInstanceId(), s.getMigDevice(), s.getProfile(), s.getUuid()));
      }
      int minor = i < minors.size() && minors.get(i) != null ? minors.get(i) : g.sample().getGpu();
      out.add(new Gpu(g.sample().getGpu(), minor, g.sample().getUuid(), List.copyOf(devices)));
    }
    return new MigLayout(List.copyOf(out));
  }

  /** The MIG device with this UUID ({@code MIG-...}), or null. */
  public Device byUuid(String uuid) {
    for (Gpu g : gpus) {
      for (Device d : g.migDevices()) if (uuid.equals(d.uuid())) return d;
    }
    return null;
  }

  /** The GPU with this UUID ({@code GPU-...}), or null. */
  public Gpu gpuByUuid(String uuid) {
    for (Gpu g : gpus) if (uuid.equals(g.uuid())) return g;
    return null;
  }

  /** The {@code <minor_number>} of each {@code <gpu>}, in document order (null where absent). */
  private static List<Integer> minors(String xml) throws Exception {
    Document doc = NvidiaSmiXmlParser.builder().parse(new InputSource(new StringReader(xml)));
    List<Integer> out = new ArrayList<>();
    for (Node n = doc.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals("gpu")) {
        Long m = Values.lng(NvidiaSmiXmlParser.text(NvidiaSmiXmlParser.child(e, "minor_number")));
        out.add(m == null ? null : m.intValue());
      }
    }
    return out;
  }
}
