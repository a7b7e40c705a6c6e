package io.fleetscope.cli;

import io.fleetscope.loadgen.bench.chaos.AgentMetrics;
import io.fleetscope.stack.services.ChildProcesses;
import io.fleetscope.stack.services.JavaClasspath;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The real node agent of {@code bench chaos} ({@code agents/target/fleetscope-agent.jar}, started
 * with the flags {@code ./fleetscope agent} uses), beside the simulated fleet: its own node name,
 * 8 GPUs read each half second from a captured H200 {@code nvidia-smi --query-gpu} row, only the
 * nvidia_smi collector (every record it numbers goes to fleet.gpu.v1, so its agent_seq is
 * contiguous there), a spool directory that survives its restarts. With {@code spoolFs} the spool
 * lies on a small tmpfs mounted for the run (the {@code spool-full} fault), always unmounted by
 * {@link #close()}.
 */
final class ChaosAgent implements AutoCloseable {
  static final String NODE = "chaos-agent-0";
  /** Size of the tmpfs the spool lies on for the spool-full fault. */
  static final String SPOOL_FS_SIZE = "4m";
  private static final Pattern METRICS_PORT = Pattern.compile("metrics listening address=127.0.0.1 port=(\\d+)");

  private final Path jar;
  private final Path dir;
  private final Path mount;
  private final Path spool;
  private final Path config;
  private final PrintStream out;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
  private final List<String> unplannedExits = new ArrayList<>();
  private boolean mounted;
  private Process process;
  private Path log;
  private int metricsPort;
  private int starts;
  /** Records the agent's earlier processes counted as dropped (their counters start from 0 again). */
  private long droppedBefore;
  private AgentMetrics last = AgentMetrics.parse("");

  /**
   * Prepares the agent's inputs and configuration under {@code dir}; with {@code spoolFs} mounts a
   * tmpfs for its spool and throws {@link SpoolFsUnavailable} (nothing mounted) when it cannot.
   */
  ChaosAgent(Path jar, Path examples, Path dir, String kafka, String registry, boolean spoolFs, PrintStream out)
      throws IOException {
    this.jar = jar;
    this.dir = Files.createDirectories(dir);
    this.out = out;
    this.mount = dir.resolve("spool-fs");
    this.spool = mount.resolve("spool");
    Files.createDirectories(mount);
    if (spoolFs) {
      mountTmpfs();
    }
    try {
      Files.createDirectories(spool);
      Path csv = dir.resolve("gpus.csv");
      Files.writeString(csv, gpuCsv(examples.resolve("captures/nvidia-smi/h200-capture.txt"), 8));
      this.config = dir.resolve("agent.yaml");
      Files.writeString(config, String.join("\n",
          "# written by bench chaos: one GPU node agent beside the simulated fleet",
          "cluster: chaos",
          "node: " + NODE,
          "interval: 500ms",
          "kafka: {bootstrap: \"" + kafka + "\", registry_url: \"" + registry + "\", compression: lz4}",
          // a full disk, not the size limit, is what the spool-full fault meets
          "spool: {dir: " + spool + ", max_bytes: 64MiB, segment_bytes: 16KiB}",
          "metrics: {port: 0}",
          "nvidia_smi: {command: [cat, " + csv + "]}",
          "xid: {enabled: false}",
          "ib: {enabled: false}",
          "inventory: {enabled: false}",
          ""));
    } catch (IOException | RuntimeException e) {
      close(); // nothing of it may stay mounted
      throw e;
    }
  }

  /** Thrown when the spool's tmpfs cannot be mounted; the message says why. */
  static final class SpoolFsUnavailable extends IOException {
    SpoolFsUnavailable(String why) {
      super(why);
    }
  }

  private void mountTmpfs() throws IOException {
    unmountStale(mount);
    try {
      ChildProcesses.run(List.of("mount", "-t", "tmpfs", "-o", "size=" + SPOOL_FS_SIZE, "tmpfs", mount.toString()), dir,
          Duration.ofSeconds(20));
    } catch (RuntimeException e) {
      throw new SpoolFsUnavailable("mount -t tmpfs -o size=" + SPOOL_FS_SIZE + " failed (needs root or CAP_SYS_ADMIN): "
          + String.valueOf(e.getMessage()).lines().findFirst().orElse("").trim());
    }
    mounted = true;
    out.printf("chaos agent spool_fs=%s size=%s status=mounted%n", mount, SPOOL_FS_SIZE);
  }

  /** Unmounts a tmpfs a killed earlier run left at {@code path}, so its state directory can be wiped. */
  static void unmountStale(Path path) {
    try {
      String abs = path.toAbsolutePath().normalize().toString();
      boolean mountedThere = Files.readAllLines(Path.of("/proc/mounts")).stream()
          .map(l -> l.split(" ")).anyMatch(f -> f.length > 1 && f[1].equals(abs));
      if (mountedThere) {
        ChildProcesses.run(List.of("umount", abs), Path.of("/"), Duration.ofSeconds(20));
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or not ours to unmount: the wipe that follows says what is in the way
    }
  }

  /** The rows of 8 GPUs: the capture's query-gpu header and its first row, with index 0..gpus-1. */
  static String gpuCsv(Path capture, int gpus) throws IOException {
    List<String> lines = Files.readAllLines(capture);
    int at = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("# load :: query-gpu")) {
        at = i;
      }
    }
    int header = at;
    while (!lines.get(header).startsWith("timestamp")) {
      header++;
    }
    String head = lines.get(header);
    String row = lines.get(header + 1);
    List<String> names = Arrays.asList(head.split(", "));
    int idx = names.indexOf("index");
    int uuid = names.indexOf("uuid");
    int bus = names.indexOf("pci.bus_id");
    StringBuilder csv = new StringBuilder(head).append('\n');
    for (int g = 0; g < gpus; g++) {
      String[] cells = row.split(", ", -1);
      cells[idx] = Integer.toString(g);
      if (uuid >= 0) {
        cells[uuid] = cells[uuid].substring(0, cells[uuid].length() - 1) + g;
      }
      if (bus >= 0) {
        cells[bus] = String.format("00000000:%02X:00.0", g + 1);
      }
      csv.append(String.join(", ", cells)).append('\n');
    }
    return csv.toString();
  }

  /** Starts the agent and waits until its /metrics answers. */
  void start() throws Exception {
    starts++;
    log = dir.resolve("agent-" + starts + ".log");
    List<String> cmd = new ArrayList<>(List.of(JavaClasspath.javaExecutable(), "-Xmx24m", "-Xms8m", "-Xss256k",
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=16m",
        "-XX:MaxMetaspaceSize=64m", "-XX:-UsePerfData", "-XX:MaxDirectMemorySize=8m", "-Xshare:auto",
        "-jar", jar.toString(), "--config", config.toString()));
    process = ChildProcesses.start(cmd, dir, log, false, java.util.Map.of("MALLOC_ARENA_MAX", "2"));
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("chaos: the agent exited at start (exit " + process.exitValue() + "): "
            + ChildProcesses.tail(log, 5));
      }
      Matcher m = METRICS_PORT.matcher(Files.readString(log));
      if (m.find()) {
        metricsPort = Integer.parseInt(m.group(1));
        metrics();
        out.printf("chaos agent node=%s pid=%d metrics=127.0.0.1:%d spool=%s log=%s%n", NODE, process.pid(), metricsPort,
            spool, log);
        return;
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("chaos: the agent's /metrics did not answer within 60 s: " + ChildProcesses.tail(log, 5));
  }

  /** The agent's /metrics now (and kept as the last reading). */
  AgentMetrics metrics() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("agent /metrics answered " + r.statusCode());
    }
    last = AgentMetrics.parse(r.body());
    return last;
  }

  /** Bytes of the files in the spool directory now. */
  long spoolDirBytes() throws IOException {
    try (Stream<Path> s = Files.walk(spool)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0; // deleted meanwhile: acknowledged and dropped from the spool
        }
      }).sum();
    }
  }

  /**
   * SIGKILL; its dropped count is taken from a reading just before. Returns that reading.
   */
  AgentMetrics kill() throws Exception {
    AgentMetrics m = metrics();
    ProcessHandle h = process.toHandle();
    h.destroyForcibly();
    h.onExit().get();
    droppedBefore += m.get(AgentMetrics.DROPPED);
    return m;
  }

  /**
   * At the end of the run: waits (up to {@code limit}) until the agent has nothing unsent, then stops
   * it (SIGTERM) and keeps its last dropped count. Returns the last reading.
   */
  AgentMetrics finish(Duration limit) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    AgentMetrics m = metrics();
    while (m.unsent() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(1000);
      m = metrics();
    }
    ChildProcesses.stop(process.toHandle(), Duration.ofSeconds(20));
    droppedBefore += m.get(AgentMetrics.DROPPED);
    out.printf("chaos agent step=stopped spooled=%d sent=%d dropped=%d unsent=%d seq_next=%d%n",
        m.get(AgentMetrics.SPOOLED), m.get(AgentMetrics.SENT), m.get(AgentMetrics.DROPPED), m.unsent(),
        m.get(AgentMetrics.SEQ_NEXT));
    process = null;
    return m;
  }

  /** Records every process of the agent counted as dropped (valid after {@link #finish}). */
  long droppedCounted() {
    return droppedBefore;
  }

  /** The agent's pid now, -1 when it does not run. */
  long pid() {
    return process == null ? -1 : process.pid();
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** Restarts the agent when it exited without being killed, and keeps that as a finding. */
  void supervise() throws Exception {
    if (process == null || process.isAlive()) {
      return;
    }
    String finding = "agent exited on its own (exit " + process.exitValue() + "), last words: "
        + ChildProcesses.tail(log, 1).trim();
    unplannedExits.add(finding);
    droppedBefore += last.get(AgentMetrics.DROPPED);
    out.printf("chaos unplanned-exit service=agent log=%s action=restart%n", log);
    start();
  }

  List<String> unplannedExits() {
    return List.copyOf(unplannedExits);
  }

  Path mount() {
    return mount;
  }

  boolean spoolOnTmpfs() {
    return mounted;
  }

  /** Stops the agent if it still runs and unmounts the spool's tmpfs. */
  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      ChildProcesses.stop(process.toHandle(), Duration.ofSeconds(10));
    }
    if (mounted) {
      try {
        ChildProcesses.run(List.of("umount", mount.toString()), dir, Duration.ofSeconds(20));
        mounted = false;
        out.printf("chaos agent spool_fs=%s status=unmounted%n", mount);
      } catch (RuntimeException e) {
        out.printf("chaos agent spool_fs=%s status=unmount-failed reason=\"%s\"%n", mount,
            String.valueOf(e.getMessage()).replace('"', '\''));
      }
    }
  }
}
