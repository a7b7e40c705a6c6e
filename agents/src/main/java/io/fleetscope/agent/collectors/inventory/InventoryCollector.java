package io.fleetscope.agent.collectors.inventory;

import io.fleetscope.agent.collectors.gpu.NvidiaSmiXmlParser;
import io.fleetscope.agent.collectors.ib.IbSysfsParser;
import io.fleetscope.agent.collectors.ib.IbValues;
import io.fleetscope.agent.collectors.ib.SysfsReader;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuInfo;
import io.fleetscope.avro.HcaInfo;
import io.fleetscope.avro.InventoryRecord;
import io.fleetscope.schemas.Topics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's own topology to fleet.inventory.v1 (keyed by node): GPUs with model and limits (from
 * {@code nvidia-smi -q -x}), HCA ports with rail (from sysfs), plus the static facts of the
 * section. Sent in the first round and then only when it changes.
 *
 * <p>A GPU whose driver gives its slowdown/shutdown/HBM limits only relative to T.Limit (no absolute
 * temperature in the XML) is sent with those limits null, and the agent logs that once per GPU at
 * info, with the relative values.
 */
public final class InventoryCollector implements Collector {
  private static final Logger log = LoggerFactory.getLogger(InventoryCollector.class);

  /** {@code inventory} section. */
  public static final class Config extends CollectorConfig {
    /** Command printing nvidia-smi -q -x for GPU models and limits; [] for a node without GPUs. */
    public List<String> gpuCommand = new ArrayList<>(List.of("nvidia-smi", "-q", "-x"));
    /** Include HCA ports from sysfs. Default true. */
    public boolean hcas = true;
    /** HCA -> rail; HCAs not listed follow mlx5_N -> rail N. */
    public Map<String, Integer> rails = new LinkedHashMap<>();
    public String rack;
    public String row;
    /** PDU outlets feeding this node, e.g. ["pdu-r12-a/7", "pdu-r12-b/7"]. */
    public List<String> pduOutlets = new ArrayList<>();
    public String cdu;
    public String cduLoop;
    /** air, rear-door, direct-liquid or immersion. */
    public String rackCooling;
    public Double rackCoolingCapacityKw;
    public Map<String, String> attributes = new LinkedHashMap<>();

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (rackCooling != null && !List.of("air", "rear-door", "direct-liquid", "immersion").contains(rackCooling)) {
        throw new ConfigException(section + ".rack_cooling", "must be air, rear-door, direct-liquid or immersion, got '" + rackCooling + "'");
      }
      if (rackCoolingCapacityKw != null && rackCoolingCapacityKw <= 0) {
        throw new ConfigException(section + ".rack_cooling_capacity_kw", "must be > 0");
      }
    }
  }

  private final Config config;
  private final AgentEnv env;
  private final InventoryBuilder.Facts facts;
  private InventoryRecord last;
  /** GPUs (UUID, else index) already logged as having only T.Limit-relative limits. */
  private final Set<String> notedRelativeLimits = new HashSet<>();

  public InventoryCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
    this.facts = new InventoryBuilder.Facts(c.rack, c.row, c.pduOutlets, c.cdu, c.cduLoop, c.rackCooling, c.rackCoolingCapacityKw, c.attributes);
  }

  @Override
  public String name() {
    return "inventory";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<GpuInfo> gpus = new ArrayList<>();
    if (!config.gpuCommand.isEmpty()) {
      String xml = env.commands().runChecked(config.gpuCommand, config.effectiveTimeout(env.agent())).stdoutText();
      List<NvidiaSmiXmlParser.Gpu> parsed = NvidiaSmiXmlParser.parse(xml, ctx);
      for (NvidiaSmiXmlParser.Gpu g : parsed) gpus.add(g.info());
      for (String note : relativeLimitNotes(parsed)) log.info(note);
    }
    List<HcaInfo> hcas = new ArrayList<>();
    if (config.hcas) {
      for (SysfsReader.PortDir p : SysfsReader.ports(env.sysRoot())) {
        var s = IbSysfsParser.parse(p.device(), p.port(), SysfsReader.readPort(p.dir()), IbValues.rail(p.device(), config.rails), ctx);
        hcas.add(InventoryBuilder.hca(s, SysfsReader.deviceFile(env.sysRoot(), p.device(), "node_guid")));
      }
    }
    InventoryRecord rec = InventoryBuilder.build(ctx.ts(), ctx.cluster(), ctx.node(), gpus, hcas, facts);
    if (InventoryBuilder.sameTopology(rec, last)) return List.of();
    last = rec;
    return List.of(new AgentRecord(Topics.INVENTORY, ctx.node(), rec));
  }

  /**
   * The log lines for GPUs whose limits are null because the driver gives them only relative to
   * T.Limit, each GPU the first time it is seen by this collector.
   */
  List<String> relativeLimitNotes(List<NvidiaSmiXmlParser.Gpu> gpus) {
    List<String> out = new ArrayList<>();
    for (NvidiaSmiXmlParser.Gpu g : gpus) {
      List<String> missing = g.limitsOnlyRelativeToTLimit();
      String id = g.info().getUuid() != null ? g.info().getUuid() : "index:" + g.info().getIndex();
      if (missing.isEmpty() || !notedRelativeLimits.add(id)) continue;
      NvidiaSmiXmlParser.TLimit t = g.tlimit();
      out.add("gpu thermal limits only relative to T.Limit, sent as null gpu=" + g.info().getIndex() + " uuid=" + g.info().getUuid()
          + " model=\"" + g.info().getModel() + "\" null=" + String.join(",", missing)
          + " slowdown_tlimit_c=" + c(t.slowdownC()) + " shutdown_tlimit_c=" + c(t.shutdownC())
          + " max_operating_tlimit_c=" + c(t.maxOperatingC()) + " mem_max_tlimit_c=" + c(t.memMaxC())
          + " tlimit_margin_c=" + c(t.marginC()));
    }
    return out;
  }

  private static String c(Double v) {
    if (v == null) return "null";
    return v == Math.rint(v) ? Long.toString(v.longValue()) : String.format(Locale.ROOT, "%.1f", v);
  }
}
