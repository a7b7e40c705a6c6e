package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.GpuMigSample;
import io.fleetscope.avro.GpuSample;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * {@code nvidia-smi -q -x} (DTD nvsmi_device v11, v12, v13) -> one {@link GpuSample} and one
 * {@link GpuInfo} per {@code <gpu>}; the GPU index is the element's position (NVML order). Handles
 * {@code clocks_throttle_reasons} (v11/v12) and {@code clocks_event_reasons} (v12/v13),
 * {@code power_readings} (v11) and {@code gpu_power_readings} (v12+), and ECC volatile counters as
 * {@code single_bit/double_bit} totals or as the {@code sram_*}/{@code dram_*} split (summed).
 * The DTD is never fetched.
 *
 * <p>Thermal limits: {@link GpuInfo} takes only the absolute thresholds ({@code gpu_temp_slow_threshold},
 * {@code gpu_temp_max_threshold}, {@code gpu_temp_max_mem_threshold}). Some drivers (580 on H200,
 * 595 on Ada, DTD v13) print none of them and give T.Limit values instead ({@code gpu_temp_tlimit}
 * and the {@code gpu_temp_*_tlimit_threshold} offsets); then those GpuInfo fields stay null and the
 * T.Limit values come back in {@link TLimit}. No absolute temperature is derived from them:
 * T.Limit is measured on the hottest sensor, not on {@code gpu_temp}, so {@code gpu_temp +
 * gpu_temp_tlimit} changes with load (H200, driver 580: 35 + 52 idle, 61 + 20 under load).
 */
public final class NvidiaSmiXmlParser {
  private NvidiaSmiXmlParser() {}

  public static final String SOURCE = "nvidia-smi-xml";

  /**
   * One {@code <gpu>}: its sample, its inventory entry, the T.Limit values of its
   * {@code <temperature>} block and, in MIG mode, one sample per MIG device ({@link NvidiaSmiMigXml}).
   */
  public record Gpu(GpuSample sample, GpuInfo info, TLimit tlimit, List<GpuMigSample> migDevices) {
    /**
     * GpuInfo limits that are null although the driver gives them relative to T.Limit (snake_case
     * GpuInfo field names, in schema order); empty when every limit the driver has is absolute.
     */
    public List<String> limitsOnlyRelativeToTLimit() {
      List<String> out = new ArrayList<>();
      if (info.getSlowdownTempC() == null && tlimit.slowdownC() != null) out.add("slowdown_temp_c");
      if (info.getShutdownTempC() == null && tlimit.shutdownC() != null) out.add("shutdown_temp_c");
      if (info.getMemMaxTempC() == null && tlimit.memMaxC() != null) out.add("mem_max_temp_c");
      return out;
    }
  }

  /**
   * The T.Limit values of a {@code <temperature>} block, Celsius, null where absent or N/A.
   *
   * @param marginC {@code gpu_temp_tlimit}: how far the GPU's hottest sensor is below its maximum
   *     operating temperature (T.Limit = 0); shrinks under load
   * @param slowdownC {@code gpu_temp_slow_tlimit_threshold}: the slowdown point on the same scale (e.g. -2)
   * @param shutdownC {@code gpu_temp_max_tlimit_threshold}: the shutdown point on the same scale (e.g. -8)
   * @param maxOperatingC {@code gpu_temp_max_gpu_tlimit_threshold}: the maximum operating point (0)
   * @param memMaxC {@code gpu_temp_max_mem_tlimit_threshold}: the HBM maximum operating point on the
   *     HBM's own T.Limit scale (the XML gives no HBM margin to compare it with)
   */
  public record TLimit(Double marginC, Double slowdownC, Double shutdownC, Double maxOperatingC, Double memMaxC) {
    /** Degrees left until slowdown: {@code marginC - slowdownC} (20 - (-2) = 22); null when either is unknown. */
    public Double slowdownMarginC() {
      return marginC == null || slowdownC == null ? null : marginC - slowdownC;
    }

    /** Degrees left until shutdown: {@code marginC - shutdownC}; null when either is unknown. */
    public Double shutdownMarginC() {
      return marginC == null || shutdownC == null ? null : marginC - shutdownC;
    }

    static TLimit of(Element temp) {
      return new TLimit(
          Values.dbl(text(child(temp, "gpu_temp_tlimit"))),
          Values.dbl(text(child(temp, "gpu_temp_slow_tlimit_threshold"))),
          Values.dbl(text(child(temp, "gpu_temp_max_tlimit_threshold"))),
          Values.dbl(text(child(temp, "gpu_temp_max_gpu_tlimit_threshold"))),
          Values.dbl(text(child(temp, "gpu_temp_max_mem_tlimit_threshold"))));
    }
  }

  public static List<Gpu> parse(String xml, CollectContext ctx) throws Exception {
    // from characters: an encoding named in the XML declaration (already decoded) is ignored, never looked up
    DocumentBuilder b = BUILDER.get();
    b.reset();
    Document doc = b.parse(new InputSource(new StringReader(xml)));
    Element root = doc.getDocumentElement();
    if (!"nvidia_smi_log".equals(root.getTagName())) {
      throw new IllegalArgumentException("not nvidia-smi -q -x output: root element is <" + root.getTagName() + ">");
    }
    List<Gpu> out = new ArrayList<>();
    int index = 0;
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals("gpu")) out.add(gpu(e, index++, ctx));
    }
    return out;
  }

  /** One configured builder per thread: looking up and configuring a factory took about 1 ms per parse. */
  private static final ThreadLocal<DocumentBuilder> BUILDER = ThreadLocal.withInitial(() -> {
    try {
      return builder();
    } catch (Exception e) {
      throw new IllegalStateException("no secure XML parser available: " + e.getMessage(), e);
    }
  });

  static DocumentBuilder builder() throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    f.setFeature("http://xml.org/sax/features/external-general-entities", false);
    f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setExpandEntityReferences(false);
    f.setValidating(false);
    return f.newDocumentBuilder();
  }

  private static Gpu gpu(Element g, int index, CollectContext ctx) {
    String pci = g.getAttribute("id");
    Element power = first(child(g, "gpu_power_readings"), child(g, "power_readings"));
    Element temp = child(g, "temperature");
    Element reasons = first(child(g, "clocks_event_reasons"), child(g, "clocks_throttle_reasons"));
    Long bitmask = null;
    if (reasons != null) {
      long m = 0;
      boolean any = false;
      for (Node n = reasons.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (!(n instanceof Element e)) continue;
        String name = e.getTagName().replaceFirst("^clocks_(event|throttle)_reason_", "");
        Boolean active = Values.bool(e.getTextContent());
        if (active == null) continue;
        any = true;
        if (active) m |= Values.throttleBit(name);
      }
      bitmask = any ? m : null;
    }
    Element vol = path(g, "ecc_errors", "volatile");
    Long sbe = null;
    Long dbe = null;
    if (vol != null) {
      if (child(vol, "single_bit") != null) {
        sbe = Values.lng(text(path(vol, "single_bit", "total")));
        dbe = Values.lng(text(path(vol, "double_bit", "total")));
      } else {
        sbe = Values.sum(Values.lng(text(child(vol, "sram_correctable"))), Values.lng(text(child(vol, "dram_correctable"))));
        Long sramUnc = child(vol, "sram_uncorrectable") != null
            ? Values.lng(text(child(vol, "sram_uncorrectable")))
            : Values.sum(Values.lng(text(child(vol, "sram_uncorrectable_parity"))), Values.lng(text(child(vol, "sram_uncorrectable_secded"))));
        dbe = Values.sum(sramUnc, Values.lng(text(child(vol, "dram_uncorrectable"))));
      }
    }
    Element remap = child(g, "remapped_rows");
    String model = Values.text(text(child(g, "product_name")));
    Double fbTotal = Values.dbl(text(path(g, "fb_memory_usage", "total")));
    Double limit = Values.dbl(text(first(child(power, "enforced_power_limit"), child(power, "current_power_limit"))));
    GpuSample s = GpuSample.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L).setSource(SOURCE)
        .setGpu(index)
        .setUuid(Values.text(text(child(g, "uuid"))))
        .setModel(model)
        .setPciBusId(pci.isEmpty() ? null : pci)
        .setTempC(Values.dbl(text(child(temp, "gpu_temp"))))
        .setMemTempC(Values.dbl(text(child(temp, "memory_temp"))))
        .setPowerW(Values.dbl(text(first(child(power, "power_draw"), child(power, "instant_power_draw")))))
        .setPowerLimitW(limit)
        .setSmClockMhz(Values.dbl(text(path(g, "clocks", "sm_clock"))))
        .setMemClockMhz(Values.dbl(text(path(g, "clocks", "mem_clock"))))
        .setUtilPct(Values.dbl(text(path(g, "utilization", "gpu_util"))))
        .setMemUtilPct(Values.dbl(text(path(g, "utilization", "memory_util"))))
        .setMemUsedMib(Values.dbl(text(path(g, "fb_memory_usage", "used"))))
        .setMemTotalMib(fbTotal)
        .setThrottleReasons(bitmask)
        .setEccSbeTotal(sbe)
        .setEccDbeTotal(dbe)
        .setRetiredPagesSbe(Values.lng(text(path(g, "retired_pages", "multiple_single_bit_retirement", "retired_count"))))
        .setRetiredPagesDbe(Values.lng(text(path(g, "retired_pages", "double_bit_retirement", "retired_count"))))
        .setRowRemapPending(Values.bool(text(child(remap, "remapped_row_pending"))))
        .setRowRemapFailure(Values.bool(text(child(remap, "remapped_row_failure"))))
        .setRemappedRowsCorrectable(Values.lng(text(child(remap, "remapped_row_corr"))))
        .setRemappedRowsUncorrectable(Values.lng(text(child(remap, "remapped_row_unc"))))
        .setPcieReplayTotal(Values.lng(text(path(g, "pci", "replay_counter"))))
        .build();
    // absolute thresholds only; a T.Limit-only driver leaves them null (see the class comment)
    GpuInfo info = GpuInfo.newBuilder()
        .setIndex(index)
        .setUuid(s.getUuid())
        .setModel(model)
        .setTdpW(Values.dbl(text(first(child(power, "default_power_limit"), child(power, "max_power_limit")))))
        .setSlowdownTempC(Values.dbl(text(child(temp, "gpu_temp_slow_threshold"))))
        .setShutdownTempC(Values.dbl(text(child(temp, "gpu_temp_max_threshold"))))
        .setMemMaxTempC(Values.dbl(text(child(temp, "gpu_temp_max_mem_threshold"))))
        .setHbmGb(fbTotal == null ? null : Math.round(fbTotal / 1024.0 * 10) / 10.0)
        .setPciBusId(s.getPciBusId())
        .build();
    return new Gpu(s, info, TLimit.of(temp), NvidiaSmiMigXml.of(g, index, s.getUuid(), ctx));
  }

  static Element child(Element parent, String name) {
    if (parent == null) return null;
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) return e;
    }
    return null;
  }

  static Element path(Element parent, String... names) {
    Element e = parent;
    for (String n : names) e = child(e, n);
    return e;
  }

  static Element first(Element a, Element b) {
    if (a != null && Values.text(a.getTextContent()) != null) return a;
    return b != null ? b : a;
  }

  static String text(Element e) {
    return e == null ? null : e.getTextContent();
  }

  /** Elements by tag name below {@code parent} (for tests). */
  static List<Element> all(Element parent, String tag) {
    NodeList nl = parent.getElementsByTagName(tag);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nl.getLength(); i++) out.add((Element) nl.item(i));
    return out;
  }
}
