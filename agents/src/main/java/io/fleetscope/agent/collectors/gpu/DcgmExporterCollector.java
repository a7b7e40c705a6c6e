package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.agent.core.Http;
import io.fleetscope.avro.NvlinkSample;
import io.fleetscope.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Scrapes dcgm-exporter's /metrics; emits GPU samples, NVLink samples (from the DCGM_FI_DEV_NVLINK_* error
 * counters and DCGM_FI_PROF_NVLINK_* rates the exporter is configured to export) and, on changes of
 * DCGM_FI_DEV_XID_ERRORS, XID events.
 */
public final class DcgmExporterCollector implements Collector {
  /** {@code dcgm_exporter} section. */
  public static final class Config extends CollectorConfig {
    /** dcgm-exporter metrics URL (http:, or file: to replay a capture). Default http://127.0.0.1:9400/metrics. */
    public String url = "http://127.0.0.1:9400/metrics";
    /** Emit a fleet.gpu.xid.v1 record when a GPU's DCGM_FI_DEV_XID_ERRORS value changes. Default true. */
    public boolean xidEvents = true;
    /** Emit fleet.nvlink.v1 records from the NVLink fields the exporter exports (none: no record). Default true. */
    public boolean nvlink = true;

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (url == null || !(url.startsWith("http://") || url.startsWith("https://") || url.startsWith("file:"))) {
        throw new ConfigException(section + ".url", "must be an http://, https:// or file: URL, got '" + url + "'");
      }
    }
  }

  private final String url;
  private final Duration timeout;
  private final DcgmXidTracker xids;
  private final boolean nvlink;

  public DcgmExporterCollector(Config c, AgentEnv env) {
    this.url = c.url.startsWith("file:") && !c.url.startsWith("file:/")
        ? env.resolve(java.nio.file.Path.of(c.url.substring(5))).toUri().toString() : c.url;
    this.timeout = c.effectiveTimeout(env.agent());
    this.xids = c.xidEvents ? new DcgmXidTracker() : null;
    this.nvlink = c.nvlink;
  }

  @Override
  public String name() {
    return "dcgm_exporter";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    String text = Http.get(url, timeout);
    List<DcgmExporterParser.GpuFields> gpus = DcgmExporterParser.group(text);
    List<AgentRecord> out = new ArrayList<>();
    for (DcgmExporterParser.GpuFields g : gpus) {
      out.add(new AgentRecord(Topics.GPU, ctx.node(), DcgmExporterParser.toSample(g, ctx)));
    }
    if (nvlink) {
      for (NvlinkSample s : DcgmNvlinkParser.parse(gpus, ctx)) out.add(new AgentRecord(Topics.NVLINK, ctx.node(), s));
    }
    for (DcgmExporterParser.MigFields m : DcgmExporterParser.groupMig(text)) {
      out.add(new AgentRecord(Topics.GPU_MIG, ctx.node(), DcgmExporterParser.toMigSample(m, ctx)));
    }
    if (xids != null) {
      for (DcgmExporterParser.GpuFields g : gpus) {
        Double v = g.fields().get("DCGM_FI_DEV_XID_ERRORS");
        xids.observe(g.gpu(), g.pciBusId(), v, ctx).ifPresent(x -> out.add(new AgentRecord(Topics.GPU_XID, ctx.node(), x)));
      }
    }
    return out;
  }
}
