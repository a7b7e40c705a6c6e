package io.fleetscope.agent.collectors.xid;

import io.fleetscope.agent.collectors.gpu.NvidiaSmiCsvParser;
import io.fleetscope.agent.collectors.gpu.PciBusId;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;
import io.fleetscope.agent.core.AgentEnv;
import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * XID events from the kernel log: followed from a file, or the new lines a command prints each round.
 *
 * <p>How far it has read is kept in the spool, in the same write as the round's records (a
 * {@link #checkpoint}, see the spool's marks), and given back at start ({@link #restore}): a kill at
 * any point leaves the spool with a round's records and the position after them, or neither, so no
 * line is lost or spooled twice. For {@code file} the checkpoint is the {@link LogFollower.Position};
 * for a {@code command} with {@code --cursor-file=F} (journalctl) it is the cursor: the command is
 * given a working copy {@code F.pending}, and at start F is rewritten from the spool's checkpoint.
 * A {@code position_file} left by an older agent is read once when the spool has no checkpoint. Each
 * record's ts is the kernel line's own time ({@link KernelLineTime}), not the read time.
 */
public final class XidCollector implements Collector {
  private static final Logger log = LoggerFactory.getLogger(XidCollector.class);

  /** {@code xid} section. Exactly one of {@code file} or {@code command}. */
  public static final class Config extends CollectorConfig {
    /** Kernel log file to follow (rotation handled). Default /var/log/kern.log unless {@code command} is set. */
    public Path file;
    /** Command printing only new kernel lines each run, e.g. journalctl -k -o cat --cursor-file=F. */
    public List<String> command;
    /** Where to start following {@code file} when no position was saved: end (skip history) or beginning. Default end. */
    public String startAt = "end";
    /**
     * Where an older agent kept the read position of {@code file}; read only at start when the spool
     * holds no position (the position now lives in the spool). Default: {@code xid.position} in spool.dir.
     */
    public Path positionFile;
    /** PCI address -> GPU index, e.g. {"0000:3b:00": 0}; merged over what {@code pci_map_command} reports. */
    public Map<String, Integer> pciToGpu = new LinkedHashMap<>();
    /** Command printing {@code index, pci.bus_id} CSV, run once at start; [] to disable. */
    public List<String> pciMapCommand = new ArrayList<>(List.of("nvidia-smi", "--query-gpu=index,pci.bus_id", "--format=csv"));

    @Override
    public void validate(String section) throws ConfigException {
      super.validate(section);
      if (file != null && command != null) throw new ConfigException(section, "set either 'file' or 'command', not both");
      if (command != null && command.isEmpty()) throw new ConfigException(section + ".command", "must not be empty");
      if (!startAt.equals("end") && !startAt.equals("beginning")) {
        throw new ConfigException(section + ".start_at", "must be 'end' or 'beginning', got '" + startAt + "'");
      }
    }
  }

  private final Config config;
  private final AgentEnv env;
  private final Duration timeout;
  private final Map<String, Integer> pciToGpu = new HashMap<>();
  private LogFollower follower;
  private Path logFile;
  private Path positionFile;
  private LogFollower.Position pendingPosition;
  private LogFollower.Position savedPosition;
  private LogFollower.Position roundStart;
  private final long bootMillis;
  private final ZoneId zone = ZoneId.systemDefault();
  private List<String> command;
  private Path cursorFile;
  private Path pendingCursor;
  private boolean cursorPending;
  private String savedCursor;

  public XidCollector(Config c, AgentEnv env) throws Exception {
    this.config = c;
    this.env = env;
    this.timeout = c.effectiveTimeout(env.agent());
    if (c.pciMapCommand != null && !c.pciMapCommand.isEmpty()) {
      try {
        String csv = env.commands().runChecked(c.pciMapCommand, timeout).stdoutText();
        for (GpuSample s : NvidiaSmiCsvParser.parse(csv, new CollectContext(0, "", ""))) {
          if (s.getPciBusId() != null) pciToGpu.put(PciBusId.normalize(s.getPciBusId()), s.getGpu());
        }
      } catch (Exception e) {
        log.warn("xid pci map unavailable command={} error={}", c.pciMapCommand.get(0), e.getMessage());
      }
    }
    c.pciToGpu.forEach((k, v) -> pciToGpu.put(PciBusId.normalize(k), v));
    // dmesg's seconds since boot mean this boot only for a command's output (dmesg prints the
    // current ring buffer); a log file may hold earlier boots, so there such lines get the read time
    this.bootMillis = c.command != null ? bootMillis(env.procRoot()) : -1;
    if (c.command == null) {
      logFile = env.resolve(c.file != null ? c.file : Path.of("/var/log/kern.log"));
      positionFile = env.resolve(c.positionFile != null ? c.positionFile : env.agent().spool.dir.resolve("xid.position"));
    } else {
      command = new ArrayList<>(c.command);
      for (int i = 0; i < command.size(); i++) {
        String a = command.get(i);
        if (a.startsWith("--cursor-file=")) {
          cursorFile = env.resolve(Path.of(a.substring("--cursor-file=".length())));
          pendingCursor = cursorFile.resolveSibling(cursorFile.getFileName() + ".pending");
          command.set(i, "--cursor-file=" + pendingCursor);
        }
      }
      if (cursorFile == null) {
        log.warn("xid command has no --cursor-file: lines logged while the agent is down are not read, command={}", c.command.get(0));
      }
    }
  }

  /** The boot time from {@code /proc/stat} (btime), for dmesg's seconds since boot; -1 when unknown. */
  static long bootMillis(Path procRoot) {
    try {
      for (String line : Files.readAllLines(procRoot.resolve("stat"))) {
        if (line.startsWith("btime ")) return Long.parseLong(line.substring(6).strip()) * 1000;
      }
    } catch (IOException | NumberFormatException | java.io.UncheckedIOException e) {
      // not Linux, or a test root without it
    }
    return -1;
  }

  @Override
  public String name() {
    return "xid";
  }

  /** The PCI -> GPU map in use (for tests and the startup log). */
  public Map<String, Integer> pciToGpu() {
    return pciToGpu;
  }

  /**
   * Starts from the spool's checkpoint; without one, from an older agent's position file, else from
   * {@code start_at} (file), or from the cursor file as it is (command).
   */
  @Override
  public void restore(String checkpoint) throws IOException {
    if (logFile == null) {
      if (cursorFile != null && checkpoint != null) {
        writeAtomically(cursorFile, checkpoint);
        savedCursor = checkpoint;
      }
      return;
    }
    LogFollower.Position saved = null;
    String source = "spool";
    if (checkpoint != null) {
      try {
        saved = LogFollower.Position.parse(checkpoint);
      } catch (IllegalArgumentException e) {
        log.warn("xid position in the spool unreadable, starting from start_at error=\"{}\"", e.getMessage());
      }
    } else {
      saved = XidPositionFile.load(positionFile);
      source = "position_file";
    }
    if (saved == null) {
      follower = new LogFollower(logFile, config.startAt.equals("end"));
      log.info("xid following file={} from={}", logFile, config.startAt);
    } else {
      follower = new LogFollower(logFile, saved);
      savedPosition = saved;
      log.info("xid following file={} from=saved source={} offset={}{}", logFile, source, saved.offset(),
          follower.resumeNote() == null ? "" : " note=\"" + follower.resumeNote() + "\"");
    }
  }

  @Override
  public List<AgentRecord> collect(CollectContext ctx) throws Exception {
    if (logFile != null && follower == null) restore(null);
    String text;
    if (follower != null) {
      roundStart = follower.position();
      text = follower.readNew();
      pendingPosition = follower.position();
    } else {
      if (cursorFile != null && !cursorPending) {
        // start from the last cursor whose lines are in the spool
        if (Files.exists(cursorFile)) {
          Files.copy(cursorFile, pendingCursor, StandardCopyOption.REPLACE_EXISTING);
        } else {
          Files.deleteIfExists(pendingCursor);
        }
      }
      text = env.commands().runChecked(command, timeout).stdoutText();
      cursorPending = cursorFile != null;
    }
    List<AgentRecord> out = new ArrayList<>();
    for (GpuXid x : XidLogParser.parse(text, pciToGpu, ctx, zone, bootMillis)) out.add(new AgentRecord(Topics.GPU_XID, ctx.node(), x));
    return out;
  }

  /** The round's records went nowhere: read its lines again next round. */
  @Override
  public void discarded() {
    if (follower != null && roundStart != null) {
      follower.reset(roundStart);
      pendingPosition = roundStart;
    } else {
      cursorPending = false;   // the next round starts again from the committed cursor
    }
  }

  /** How far this round read, when it moved since the last committed round (kept in the spool with the records). */
  @Override
  public String checkpoint() throws IOException {
    if (follower != null) {
      return pendingPosition == null || pendingPosition.equals(savedPosition) ? null : pendingPosition.format().strip();
    }
    if (!cursorPending || !Files.exists(pendingCursor)) return null;
    String cursor = Files.readString(pendingCursor, StandardCharsets.UTF_8);
    return cursor.equals(savedCursor) ? null : cursor;
  }

  /** The round's records and its checkpoint are in the spool: the next checkpoint is relative to it. */
  @Override
  public void committed() throws IOException {
    if (follower != null) {
      if (pendingPosition != null) savedPosition = pendingPosition;
    } else if (cursorPending && Files.exists(pendingCursor)) {
      // the next round starts from here; at a restart the spool's checkpoint rewrites it
      savedCursor = Files.readString(pendingCursor, StandardCharsets.UTF_8);
      writeAtomically(cursorFile, savedCursor);
    }
  }

  private static void writeAtomically(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
