package io.fleetscope.agent.collectors.jobs;

import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import io.fleetscope.schemas.Topics;
import io.fleetscope.agent.collectors.gpu.NvidiaSmiCsvParser;
import io.fleetscope.agent.collectors.gpu.MigLayout;
import io.fleetscope.agent.collectors.gpu.NvidiaSmiListParser;
import io.fleetscope.avro.GpuSample;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Which job owns which GPUs of this node, to fleet.jobs.v1 (keyed by node): first round, then on change. */
public final class JobsCollector implements Collector {
  /** {@code jobs} section. */
  public static final class Config extends CollectorConfig {
    /** slurm_file (prolog/epilog file), squeue, scontrol, or kubernetes (the kubelet's pod-resources socket). Default slurm_file. */
    public String source = "slurm_file";
    /** The prolog/epilog file. Default /run/fleetscope/slurm-jobs. */
    public Path file = Path.of("/run/fleetscope/slurm-jobs");
    /** squeue command; {@code {node}} becomes the agent's node name. */
    public List<String> command = new ArrayList<>(List.of("squeue", "-h", "-t", "R", "-w", "{node}", "-o", "%i|%u|%P|%b"));
    /**
     * scontrol: {@code scontrol -d -o show job}, the one command that prints each job's GRES indexes
     * per node; it lists every job of the cluster, so give this collector a longer interval on a
     * large cluster.
     */
    public List<String> scontrolCommand = new ArrayList<>(List.of("scontrol", "-d", "-o", "show", "job"));
    /** kubernetes: the kubelet's pod-resources socket. */
    public Path socket = Path.of("/var/lib/kubelet/pod-resources/kubelet.sock");
    /** kubernetes: the device-plugin resource names that are GPUs. */
    public List<String> gpuResources = new ArrayList<>(List.of("nvidia.com/gpu"));
    /** kubernetes: maps GPU UUIDs (the device plugin's default ids) to indices; [] when the plugin reports indices. */
    public List<String> gpuUuidCommand = new ArrayList<>(List.of("nvidia-smi", "--query-gpu=index,uuid", "--format=csv"));
    /**
     * kubernetes: lists the MIG devices ({@code MIG-...} UUIDs) and the GPU each is part of, run when an
     * id stays unmapped after the UUID map; a MIG device's pod is then sent with the GPU that holds it.
     * [] when no GPU is in MIG mode.
     */
    public List<String> migListCommand = new ArrayList<>(List.of("nvidia-smi", "-L"));
    /**
     * slurm_file, squeue and scontrol: the node's GPUs and MIG devices (GPU and compute instance ids, minor
     * numbers), run when the jobs change, to tell which GPU or MIG device a GRES index or a MIG UUID
     * names (with {@code mig_list_command} for the MIG UUIDs). [] to take indexes as GPU indexes
     * (no GPU in MIG mode); MIG-typed GRES then stay unmapped.
     */
    public List<String> gpuLayoutCommand = new ArrayList<>(List.of("nvidia-smi", "-q", "-x"));

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (!source.equals("slurm_file") && !source.equals("squeue") && !source.equals("scontrol") && !source.equals("kubernetes")) {
        throw new ConfigException(section + ".source", "must be slurm_file, squeue, scontrol or kubernetes, got '" + source + "'");
      }
      if (source.equals("scontrol") && scontrolCommand.isEmpty()) throw new ConfigException(section + ".scontrol_command", "must not be empty");
      if (source.equals("squeue") && command.isEmpty()) throw new ConfigException(section + ".command", "must not be empty");
      if (source.equals("kubernetes") && gpuResources.isEmpty()) throw new ConfigException(section + ".gpu_resources", "must name at least one resource, e.g. nvidia.com/gpu");
    }
  }

  private static final Logger log = LoggerFactory.getLogger(JobsCollector.class);

  private final Config config;
  private final AgentEnv env;
  private List<GpuAllocation> last;
  private PodResourcesClient kubelet;
  private Map<String, Integer> uuidToIndex = Map.of();
  private Set<String> reportedUnmapped = Set.of();
  private List<SlurmJobsParser.SlurmJob> lastSlurm;
  private boolean layoutFailed;
  private String lastLayoutError;
  private String lastListError;

  public JobsCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
    if (c.source.equals("kubernetes")) kubelet = new PodResourcesClient(env.resolve(c.socket));
  }

  @Override
  public String name() {
    return "jobs";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<GpuAllocation> now;
    if (kubelet != null) {
      now = fromKubelet(config.effectiveTimeout(env.agent()));
    } else {
      List<SlurmJobsParser.SlurmJob> jobs;
      if (config.source.equals("squeue")) {
        List<String> cmd = config.command.stream().map(a -> a.replace("{node}", ctx.node())).toList();
        jobs = SlurmJobsParser.parseSqueue(env.commands().runChecked(cmd, config.effectiveTimeout(env.agent())).stdoutText());
      } else if (config.source.equals("scontrol")) {
        List<String> cmd = config.scontrolCommand.stream().map(a -> a.replace("{node}", ctx.node())).toList();
        jobs = ScontrolJobsParser.parse(env.commands().runChecked(cmd, config.effectiveTimeout(env.agent())).stdoutText(), ctx.node());
      } else {
        Path f = env.resolve(config.file);
        jobs = Files.exists(f) ? SlurmJobsParser.parseFile(Files.readString(f, StandardCharsets.UTF_8)) : List.of();
      }
      if (jobs.equals(lastSlurm)) return List.of();
      now = fromSlurm(jobs, config.effectiveTimeout(env.agent()));
      // a layout that could not be read is read again next round, not only when the jobs change
      lastSlurm = layoutFailed ? null : jobs;
    }
    if (now.equals(last)) return List.of();
    last = now;
    JobAllocations rec = JobAllocations.newBuilder()
        .setTs(ctx.ts()).setCluster(ctx.cluster()).setNode(ctx.node()).setAgentSeq(0L)
        .setSource(switch (config.source) {
          case "squeue" -> "squeue";
          case "scontrol" -> "scontrol";
          case "kubernetes" -> "kubelet-pod-resources";
          default -> "slurm-prolog";
        })
        .setAllocations(new ArrayList<>(now))
        .build();
    return List.of(new AgentRecord(Topics.JOBS, ctx.node(), rec));
  }

  /** The jobs' GRES indexes and device ids resolved against the node's layout, read now (the jobs changed). */
  private List<GpuAllocation> fromSlurm(List<SlurmJobsParser.SlurmJob> jobs, Duration timeout) throws InterruptedException {
    boolean anyDevice = jobs.stream().anyMatch(j -> !j.deviceIds().isEmpty() || j.gres().stream().anyMatch(e -> !e.indexes().isEmpty()));
    MigLayout layout = null;
    layoutFailed = false;
    if (anyDevice && !config.gpuLayoutCommand.isEmpty()) {
      try {
        String xml = env.commands().runChecked(config.gpuLayoutCommand, timeout).stdoutText();
        layout = MigLayout.parse(xml, xml.contains("<mig_device>") ? migListing(timeout) : null);
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        // indexes are then taken as GPU indexes; MIG-typed GRES and device ids are named unmapped below
        layoutFailed = true;
        if (!java.util.Objects.equals(e.getMessage(), lastLayoutError)) {
          log.warn("jobs slurm gpu_layout_failed command=\"{}\" reason=\"{}\"", String.join(" ", config.gpuLayoutCommand), e.getMessage());
        }
        lastLayoutError = e.getMessage();
      }
    }
    if (!layoutFailed) lastLayoutError = null;
    SlurmAllocations.Result r = SlurmAllocations.resolve(jobs, layout);
    Set<String> unmapped = new java.util.TreeSet<>(r.unresolved());
    if (!unmapped.isEmpty() && !unmapped.equals(reportedUnmapped)) {
      log.warn("jobs slurm devices_unmapped={} what=\"{}\"", unmapped.size(), String.join("; ", unmapped));
    }
    reportedUnmapped = unmapped;
    return r.allocations();
  }

  /**
   * {@code mig_list_command}'s output, or null (none configured, or it failed: the layout is then
   * used without MIG profiles and UUIDs, so MIG types are not checked against the devices).
   */
  private String migListing(Duration timeout) throws InterruptedException {
    if (config.migListCommand.isEmpty()) return null;
    try {
      return env.commands().runChecked(config.migListCommand, timeout).stdoutText();
    } catch (java.io.IOException | java.util.concurrent.TimeoutException e) {
      if (!java.util.Objects.equals(e.getMessage(), lastListError)) {
        log.warn("jobs slurm mig_list_failed command=\"{}\" reason=\"{}\"", String.join(" ", config.migListCommand), e.getMessage());
      }
      lastListError = e.getMessage();
      return null;
    }
  }

  private List<GpuAllocation> fromKubelet(Duration timeout) throws Exception {
    List<PodResourcesParser.Pod> pods = PodResourcesParser.parseListResponse(kubelet.list(timeout));
    Set<String> gpuResources = new HashSet<>(config.gpuResources);
    KubernetesAllocations.Result r = KubernetesAllocations.map(pods, gpuResources, uuidToIndex);
    // refresh the UUID map only for ids not seen unmapped before (a new or replaced GPU), so a
    // device that never maps (MIG) does not run the command every round
    if (!config.gpuUuidCommand.isEmpty() && !reportedUnmapped.containsAll(r.unmapped())) {
      Map<String, Integer> m = new HashMap<>();
      String csv = env.commands().runChecked(config.gpuUuidCommand, timeout).stdoutText();
      for (GpuSample s : NvidiaSmiCsvParser.parse(csv, new CollectContext(0, "", ""))) {
        if (s.getUuid() != null) m.put(s.getUuid(), s.getGpu());
      }
      uuidToIndex = Map.copyOf(m);
      r = KubernetesAllocations.map(pods, gpuResources, uuidToIndex);
    }
    if (!config.migListCommand.isEmpty() && r.unmapped().stream().anyMatch(id -> id.startsWith("MIG-"))
        && !reportedUnmapped.containsAll(r.unmapped())) {
      try {
        String listing = env.commands().runChecked(config.migListCommand, timeout).stdoutText();
        Map<String, Integer> m = new HashMap<>(uuidToIndex);
        m.putAll(NvidiaSmiListParser.uuidToGpuIndex(NvidiaSmiListParser.parse(listing)));
        uuidToIndex = Map.copyOf(m);
        r = KubernetesAllocations.map(pods, gpuResources, uuidToIndex);
      } catch (java.io.IOException | java.util.concurrent.TimeoutException e) {
        // the allocations that map are still sent; the MIG ids stay unmapped and are named below
        log.warn("jobs kubernetes mig_list_failed command=\"{}\" reason=\"{}\"", String.join(" ", config.migListCommand), e.getMessage());
      }
    }
    if (!r.unmapped().isEmpty() && !r.unmapped().equals(reportedUnmapped)) {
      log.warn("jobs kubernetes devices_unmapped={} ids=\"{}\" reason=\"not a GPU index, not in the UUID map nor in the MIG listing\"",
          r.unmapped().size(), String.join(",", r.unmapped()));
    }
    reportedUnmapped = r.unmapped();
    return r.allocations();
  }

  @Override
  public void close() throws Exception {
    if (kubelet != null) kubelet.close();
  }
}
