package io.fleetscope.stack.services.flink;

import io.fleetscope.stack.services.ChildProcesses;
import io.fleetscope.stack.services.FreePorts;
import io.fleetscope.stack.services.JavaClasspath;
import io.fleetscope.stack.services.ParentWatchdog;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Flink session cluster: one JobManager and one or more TaskManagers, each its own JVM, run
 * from the Flink runtime jars of {@code stack/flink-cluster/target/lib} (the jars a Flink
 * distribution's {@code lib/} holds; flink-dist itself is not published on Maven Central). Nothing
 * of FleetScope's analytics is on their classpath: jobs arrive as a job jar over REST.
 *
 * <p>Layout under {@link Config#dir()}: {@code conf/} (config.yaml and log4j2.properties, rewritten
 * at every start), {@code log/} (one log per process), {@code checkpoints/}, {@code savepoints/},
 * {@code tmp/} (RocksDB working directories, uploaded jars). Checkpoints and savepoints outlive the
 * cluster; a later start on the same directory finds them.
 *
 * <p>The JVM memory flags come from Flink's own {@code BashJavaUtils} (the class the distribution's
 * start scripts call), so the processes are sized exactly as {@code jobmanager.sh} and
 * {@code taskmanager.sh} would size them.
 */
public final class LocalFlink implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalFlink.class);

  /** The {@code --add-opens/--add-exports} set of Flink's default {@code env.java.opts.all} for Java 17+. */
  static final List<String> JAVA_MODULE_OPTIONS = List.of(
      "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
      "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
      "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.text=ALL-UNNAMED",
      "--add-opens=java.base/java.time=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

  public static final String JOBMANAGER_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
  public static final String TASKMANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
  static final String BASH_JAVA_UTILS = "org.apache.flink.runtime.util.bash.BashJavaUtils";

  /**
   * How to run the cluster.
   *
   * @param dir configuration, logs, checkpoints, savepoints and temporary files (created if missing)
   * @param libDir the Flink runtime jars ({@code stack/flink-cluster/target/lib})
   * @param restPort REST API and web UI on 127.0.0.1
   * @param rpcPort the JobManager's RPC port
   * @param blobPort the JobManager's blob server port
   * @param slots task slots per TaskManager
   * @param jobManagerMemory {@code jobmanager.memory.process.size}, e.g. {@code 768m}
   * @param taskManagerMemory {@code taskmanager.memory.process.size}, e.g. {@code 1536m}
   * @param heartbeat {@code heartbeat.interval}; the timeout is five times this (Flink's ratio)
   * @param detached processes outlive this JVM ({@code fleetscope up}); attached ones die with it
   * @param startTimeout how long to wait for REST and for a TaskManager to register
   * @param stateBackend {@code rocksdb} (incremental checkpoints) or {@code hashmap} (state on the heap,
   *     full checkpoints)
   * @param prometheusPorts empty (the default): no Prometheus reporter; else a port or range (e.g.
   *     {@code 9249-9259}) for Flink's Prometheus reporter (flink-metrics-prometheus), each JobManager
   *     and TaskManager taking the first free one. Off by default: that reporter listens on every
   *     interface, not on 127.0.0.1 only like the rest of the local stack
   */
  public record Config(Path dir, Path libDir, int restPort, int rpcPort, int blobPort, int slots,
      String jobManagerMemory, String taskManagerMemory, Duration heartbeat, boolean detached, Duration startTimeout,
      String stateBackend, String prometheusPorts) {
    public Config {
      if (!prometheusPorts.isEmpty() && !prometheusPorts.matches("\\d{1,5}(-\\d{1,5})?")) {
        throw new IllegalArgumentException("flink: Prometheus reporter ports must be a port or a range such as 9249-9259, not "
            + prometheusPorts);
      }
      if (!List.of("rocksdb", "hashmap").contains(stateBackend)) {
        throw new IllegalArgumentException("flink: state backend must be rocksdb or hashmap, not " + stateBackend);
      }
    }

    /** Free ports, 2 slots, JobManager 768m, TaskManager 1536m, 2 s heartbeats, attached, 120 s, RocksDB. */
    public static Config forTests(Path dir, Path libDir) {
      return new Config(dir, libDir, FreePorts.pick(), FreePorts.pick(), FreePorts.pick(), 2, "768m", "1536m",
          Duration.ofSeconds(2), false, Duration.ofSeconds(120), "rocksdb", "");
    }

    public Config withPorts(int rest, int rpc, int blob) {
      return new Config(dir, libDir, rest, rpc, blob, slots, jobManagerMemory, taskManagerMemory, heartbeat, detached,
          startTimeout, stateBackend, prometheusPorts);
    }

    public Config withMemory(String jm, String tm) {
      return new Config(dir, libDir, restPort, rpcPort, blobPort, slots, jm, tm, heartbeat, detached, startTimeout, stateBackend,
          prometheusPorts);
    }

    public Config withDetached(boolean d) {
      return new Config(dir, libDir, restPort, rpcPort, blobPort, slots, jobManagerMemory, taskManagerMemory, heartbeat,
          d, startTimeout, stateBackend, prometheusPorts);
    }

    public Config withSlots(int s) {
      return new Config(dir, libDir, restPort, rpcPort, blobPort, s, jobManagerMemory, taskManagerMemory, heartbeat,
          detached, startTimeout, stateBackend, prometheusPorts);
    }

    /** With Flink's Prometheus reporter on {@code ports} (a port or range, e.g. 9249-9259; empty: none). */
    public Config withPrometheusPorts(String ports) {
      return new Config(dir, libDir, restPort, rpcPort, blobPort, slots, jobManagerMemory, taskManagerMemory, heartbeat,
          detached, startTimeout, stateBackend, ports);
    }

    public String restUrl() {
      return "http://127.0.0.1:" + restPort;
    }

    public Path checkpointDir() {
      return dir.toAbsolutePath().resolve("checkpoints");
    }

    public Path savepointDir() {
      return dir.toAbsolutePath().resolve("savepoints");
    }
  }

  private final Config config;
  private final Process jobManager;
  private final List<Process> taskManagers = new ArrayList<>();
  private final FlinkRest rest;
  private int taskManagersStarted;
  /** The TaskManager's JVM flags and properties, asked of BashJavaUtils once (a JVM start saved per TaskManager). */
  private List<String> taskManagerParams;

  private LocalFlink(Config config, Process jobManager) {
    this.config = config;
    this.jobManager = jobManager;
    this.rest = new FlinkRest(config.restUrl());
  }

  /** The runtime jars next to the project: {@code ROOT/stack/flink-cluster/target/lib}. */
  public static Path libDir(Path projectRoot) {
    return projectRoot.resolve("stack").resolve("flink-cluster").resolve("target").resolve("lib");
  }

  /**
   * {@link #libDir} of the FleetScope checkout at or above {@code start} (the working directory of a
   * command or of a module's tests); {@code start}'s own when there is none above it.
   */
  public static Path findLibDir(Path start) {
    for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("stack/flink-cluster/pom.xml"))) {
        return libDir(p);
      }
    }
    return libDir(start.toAbsolutePath().normalize());
  }

  /** Writes the configuration, starts the JobManager and one TaskManager, waits until a slot is free. */
  public static LocalFlink start(Config config) {
    long t0 = System.nanoTime();
    requireLib(config.libDir());
    for (int port : new int[] {config.restPort(), config.rpcPort(), config.blobPort()}) {
      if (!FreePorts.isFree(port)) {
        throw new IllegalStateException("flink: port " + port + " on 127.0.0.1 is in use; stop what listens there or choose another port");
      }
    }
    Path dir = config.dir().toAbsolutePath();
    try {
      for (String d : List.of("conf", "log", "checkpoints", "savepoints", "tmp/upload")) {
        Files.createDirectories(dir.resolve(d));
      }
      Files.writeString(dir.resolve("conf/config.yaml"), FlinkClusterConfig.yaml(config), StandardCharsets.UTF_8);
      Files.writeString(dir.resolve("conf/log4j2.properties"), FlinkClusterConfig.log4j(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("flink: cannot prepare " + dir + ": " + e.getMessage(), e);
    }
    Process jm = launch(config, "jobmanager", resourceParams(classpath(config.libDir()), dir.resolve("conf"),
        "GET_JM_RESOURCE_PARAMS", dir), JOBMANAGER_MAIN, List.of());
    LocalFlink flink = new LocalFlink(config, jm);
    try {
      flink.awaitRest();
      flink.startTaskManager();
    } catch (RuntimeException e) {
      flink.stop();
      throw e;
    }
    log.info("flink started rest={} jobmanager_pid={} taskmanager_pid={} slots={} ms={} dir={}", config.restUrl(),
        jm.pid(), flink.taskManagers.get(0).pid(), config.slots(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), dir);
    // jobmanager.bind-host and taskmanager.bind-host (FlinkClusterConfig) keep the other ports,
    // chosen by Flink, on 127.0.0.1 too
    log.info("flink listening address=127.0.0.1 rest_port={} rpc_port={} blob_port={}", config.restPort(),
        config.rpcPort(), config.blobPort());
    return flink;
  }

  /** Starts one more TaskManager and waits until the JobManager counts it; returns its process. */
  public synchronized Process startTaskManager() {
    java.util.Set<String> before = rest.taskManagerIds();
    taskManagersStarted++;
    if (taskManagerParams == null) {
      taskManagerParams = resourceParams(classpath(config.libDir()), config.dir().toAbsolutePath().resolve("conf"),
          "GET_TM_RESOURCE_PARAMS", config.dir().toAbsolutePath());
    }
    Process tm = launch(config, "taskmanager-" + taskManagersStarted, taskManagerParams, TASKMANAGER_MAIN, List.of());
    taskManagers.add(tm);
    long deadline = System.nanoTime() + config.startTimeout().toNanos();
    while (before.containsAll(rest.taskManagerIds())) {
      if (!tm.isAlive()) {
        throw new IllegalStateException("flink: taskmanager exited rc=" + tm.exitValue() + " before registering; problems:\n"
            + ChildProcesses.problems(logFile("taskmanager-" + taskManagersStarted), 5));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("flink: taskmanager did not register within " + config.startTimeout()
            + "; log " + logFile("taskmanager-" + taskManagersStarted));
      }
      pause(200);
    }
    log.info("flink taskmanager started pid={} taskmanagers={}", tm.pid(), rest.taskManagerIds().size());
    return tm;
  }

  /**
   * Starts a TaskManager for a cluster whose JobManager runs already (e.g. started by another
   * {@code fleetscope up} and left without TaskManager when its TaskManager died); waits until it
   * registers and returns its pid.
   */
  public static long addTaskManager(Config config, String name) {
    FlinkRest rest = new FlinkRest(config.restUrl());
    java.util.Set<String> before = rest.taskManagerIds();
    Path dir = config.dir().toAbsolutePath();
    Process tm = launch(config, name, resourceParams(classpath(config.libDir()), dir.resolve("conf"),
        "GET_TM_RESOURCE_PARAMS", dir), TASKMANAGER_MAIN, List.of());
    long deadline = System.nanoTime() + config.startTimeout().toNanos();
    while (before.containsAll(rest.taskManagerIds())) {
      if (!tm.isAlive() || System.nanoTime() > deadline) {
        ChildProcesses.stop(tm.toHandle(), Duration.ofSeconds(5));
        throw new IllegalStateException("flink: taskmanager " + name + " did not register; log "
            + config.dir().toAbsolutePath().resolve("log").resolve(name + ".log"));
      }
      pause(200);
    }
    log.info("flink taskmanager added pid={} name={}", tm.pid(), name);
    return tm.pid();
  }

  /** The TaskManagers started by this object that are still alive. */
  public synchronized List<Process> taskManagers() {
    return taskManagers.stream().filter(Process::isAlive).toList();
  }

  /** SIGKILL of a TaskManager, as a crashed machine would do it; waits until the process is gone. */
  public synchronized void killTaskManager(Process tm) {
    tm.destroyForcibly();
    try {
      tm.onExit().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("flink: taskmanager pid=" + tm.pid() + " did not die on SIGKILL", e);
    }
    log.info("flink taskmanager killed pid={} signal=KILL", tm.pid());
  }

  public FlinkRest rest() {
    return rest;
  }

  public Config config() {
    return config;
  }

  public long jobManagerPid() {
    return jobManager.pid();
  }

  /** The log file of a process of this cluster: {@code jobmanager} or {@code taskmanager-N}. */
  public Path logFile(String process) {
    return config.dir().toAbsolutePath().resolve("log").resolve(process + ".log");
  }

  /** Stops the TaskManagers, then the JobManager (SIGTERM: Flink's own shutdown). */
  public synchronized void stop() {
    long t0 = System.nanoTime();
    for (Process tm : taskManagers) {
      ChildProcesses.stop(tm.toHandle(), Duration.ofSeconds(30));
    }
    ChildProcesses.stop(jobManager.toHandle(), Duration.ofSeconds(30));
    log.info("flink stopped jobmanager_pid={} ms={}", jobManager.pid(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
  }

  @Override
  public void close() {
    stop();
  }

  // ---- processes ------------------------------------------------------------------------------

  /**
   * Starts one Flink process with the JVM memory flags and dynamic properties BashJavaUtils gave for
   * it ({@link #resourceParams}, as the distribution's scripts do): {@code main --configDir conf -D k=v ...}.
   */
  static Process launch(Config config, String name, List<String> params, String mainClass, List<String> extraArgs) {
    Path dir = config.dir().toAbsolutePath();
    Path conf = dir.resolve("conf");
    String cp = classpath(config.libDir());
    List<String> cmd = new ArrayList<>();
    cmd.add(JavaClasspath.javaExecutable());
    cmd.addAll(split(params.get(0)));
    cmd.addAll(JAVA_MODULE_OPTIONS);
    cmd.add("-Dlog.file=" + dir.resolve("log").resolve(name + ".log"));
    cmd.add("-Dlog4j.configurationFile=file:" + conf.resolve("log4j2.properties"));
    cmd.add("-Dlog4j2.formatMsgNoLookups=true");
    if (!config.detached()) {
      // attached: the process dies with this JVM, even on SIGKILL. Only the watchdog's own jar joins
      // the classpath (stack services, none of the analytics).
      cmd.add("-cp");
      cmd.add(cp + File.pathSeparator + codeSource(ParentWatchdog.class));
      cmd.add(ParentWatchdog.class.getName());
      cmd.add(Long.toString(ProcessHandle.current().pid()));
    } else {
      cmd.add("-cp");
      cmd.add(cp);
    }
    cmd.add(mainClass);
    cmd.add("--configDir");
    cmd.add(conf.toString());
    cmd.addAll(split(params.size() > 1 ? params.get(1) : ""));
    cmd.addAll(extraArgs);
    return ChildProcesses.start(cmd, dir, dir.resolve("log").resolve(name + ".out"), config.detached(), Map.of());
  }

  /** The two {@code BASH_JAVA_UTILS_EXEC_RESULT:} lines: JVM flags, then {@code -D k=v} properties. */
  static List<String> resourceParams(String cp, Path conf, String command, Path workDir) {
    String out = ChildProcesses.run(List.of(JavaClasspath.javaExecutable(), "-Xmx128m", "-cp", cp, BASH_JAVA_UTILS,
        command, "--configDir", conf.toString()), workDir, Duration.ofSeconds(60));
    List<String> results = new ArrayList<>();
    for (String line : out.split("\\R")) {
      if (line.startsWith("BASH_JAVA_UTILS_EXEC_RESULT:")) {
        results.add(line.substring("BASH_JAVA_UTILS_EXEC_RESULT:".length()).strip());
      }
    }
    if (results.isEmpty()) {
      throw new IllegalStateException("flink: " + BASH_JAVA_UTILS + " " + command + " printed no result:\n" + out.strip());
    }
    return results;
  }

  static List<String> split(String s) {
    List<String> out = new ArrayList<>();
    for (String t : s.strip().split("\\s+")) {
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }

  static String classpath(Path libDir) {
    return libDir.toAbsolutePath() + File.separator + "*";
  }

  static void requireLib(Path libDir) {
    if (!Files.isRegularFile(libDir.resolve("flink-runtime-" + flinkVersion(libDir) + ".jar"))) {
      throw new IllegalStateException("flink: no Flink runtime jars in " + libDir
          + "; build them with `mvn -pl stack/flink-cluster package` (./fleetscope does this on first use)");
    }
  }

  /** The version of the flink-runtime jar in {@code libDir} ("" when there is none). */
  static String flinkVersion(Path libDir) {
    try (var s = Files.list(libDir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("flink-runtime-[0-9].*\\.jar"))
          .map(n -> n.substring("flink-runtime-".length(), n.length() - ".jar".length())).findFirst().orElse("");
    } catch (IOException e) {
      return "";
    }
  }

  private static String codeSource(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private void awaitRest() {
    long deadline = System.nanoTime() + config.startTimeout().toNanos();
    while (true) {
      if (!jobManager.isAlive()) {
        throw new IllegalStateException("flink: jobmanager exited rc=" + jobManager.exitValue() + " before answering; problems:\n"
            + ChildProcesses.problems(logFile("jobmanager"), 5) + "\n" + ChildProcesses.tail(
                config.dir().toAbsolutePath().resolve("log/jobmanager.out"), 5));
      }
      if (FreePorts.isListening(config.restPort()) && rest.isHealthy()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("flink: REST did not answer on " + config.restUrl() + " within "
            + config.startTimeout() + "; log " + logFile("jobmanager"));
      }
      pause(200);
    }
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for flink", e);
    }
  }
}
