package io.fleetscope.agent.collectors.gpu;

import io.fleetscope.agent.config.Checks;
import io.fleetscope.agent.config.CommandConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * GPU samples from {@code nvidia-smi --query-gpu=FIELDS}: by default one long-running
 * {@code nvidia-smi ... -lms INTERVAL} whose output blocks are parsed as they arrive
 * ({@link NvidiaSmiCsvStream}; NVML is initialised once, not once per round), else one
 * {@code nvidia-smi --query-gpu=FIELDS --format=csv} per round.
 */
public final class NvidiaSmiCsvCollector implements Collector {
  /** The per-round command's default. */
  static final List<String> DEFAULT_COMMAND = List.of("nvidia-smi", "--query-gpu={fields}", "--format=csv");
  /** The loop-mode command's default. */
  static final List<String> DEFAULT_STREAM_COMMAND =
      List.of("nvidia-smi", "--query-gpu={fields}", "--format=csv,noheader,nounits", "-lms", "{interval_ms}");
  /** The stream is restarted when it printed nothing for this many intervals (but never sooner than {@link #MIN_STALL}). */
  static final int STALL_INTERVALS = 3;
  static final Duration MIN_STALL = Duration.ofSeconds(10);

  /**
   * {@code nvidia_smi} section. {@code {fields}} in the commands is replaced by the comma-joined
   * {@code fields}, {@code {interval_ms}} by the collector's interval in milliseconds.
   */
  public static final class Config extends CommandConfig {
    public List<String> fields = new ArrayList<>(NvidiaSmiCsvParser.DEFAULT_FIELDS);
    /**
     * Keep one nvidia-smi running in its loop mode ({@code stream_command}) instead of running
     * {@code command} every round. Default: true when {@code command} is left at its default,
     * false when the section names its own {@code command} (a capture replay, a wrapper).
     */
    public Boolean stream;
    /** The loop-mode command. Default {@code [nvidia-smi, --query-gpu={fields}, --format=csv,noheader,nounits, -lms, {interval_ms}]}. */
    public List<String> streamCommand = new ArrayList<>(DEFAULT_STREAM_COMMAND);

    public Config() {
      command = new ArrayList<>(DEFAULT_COMMAND);
    }

    /** Whether this section streams (see {@link #stream}). */
    public boolean streams() {
      return stream != null ? stream : command.equals(DEFAULT_COMMAND);
    }

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (!fields.contains("index")) throw new ConfigException(section + ".fields", "must include 'index' (records are keyed by GPU index)");
      if (streams()) Checks.command(section + ".stream_command", streamCommand);
    }
  }

  private final List<String> command;
  private final Config config;
  private final AgentEnv env;
  private final NvidiaSmiCsvStream stream;

  public NvidiaSmiCsvCollector(Config c, AgentEnv env) {
    this.config = c;
    this.env = env;
    String joined = String.join(",", c.fields);
    Duration interval = c.effectiveInterval(env.agent());
    this.command = c.command.stream().map(a -> a.replace("{fields}", joined)).toList();
    if (c.streams()) {
      List<String> loop = c.streamCommand.stream()
          .map(a -> a.replace("{fields}", joined).replace("{interval_ms}", Long.toString(interval.toMillis()))).toList();
      Duration stall = interval.multipliedBy(STALL_INTERVALS);
      this.stream = new NvidiaSmiCsvStream(name(), loop, env.agent().baseDir, c.fields, interval.multipliedBy(2),
          stall.compareTo(MIN_STALL) < 0 ? MIN_STALL : stall);
    } else {
      this.stream = null;
    }
  }

  @Override
  public String name() {
    return "nvidia_smi";
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    List<AgentRecord> recs = new ArrayList<>();
    if (stream != null) {
      // wait for a block for most of the round's deadline, so a missing one fails the round with its reason
      NvidiaSmiCsvBlocks.Block b = stream.take(config.effectiveTimeout(env.agent()).multipliedBy(4).dividedBy(5));
      for (GpuSample s : b.samples(ctx)) recs.add(new AgentRecord(Topics.GPU, ctx.node(), s));
      return recs;
    }
    String out = env.commands().runChecked(command, config.effectiveTimeout(env.agent())).stdoutText();
    for (GpuSample s : NvidiaSmiCsvParser.parse(out, ctx)) recs.add(new AgentRecord(Topics.GPU, ctx.node(), s));
    return recs;
  }

  @Override
  public void close() {
    if (stream != null) stream.close();
  }
}
