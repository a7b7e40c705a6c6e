package io.fleetscope.agent.bench;

import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.SchemaRegistryServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Footprint benchmark (not a test): RSS and CPU of the shaded agent sampling 8 GPUs and 8 HCAs from
 * captures at a 1 s interval, publishing to a real local broker, for several JVM flag sets run side
 * by side. Run by agents/bench/footprint.sh; see BENCHMARKS.md (agent footprint).
 *
 * <p>Args: WORKDIR AGENT_JAR SECONDS RUNS. Inputs are derived from the captures in agents/examples:
 * the captured H200 {@code --query-gpu} row repeated for indices 0..7, and the captured mlx5_0 sysfs
 * port copied to mlx5_0..mlx5_7.
 */
public final class FootprintBench {
  private FootprintBench() {}

  /** Placeholders in the flag sets, replaced by files under the work directory once it is known. */
  static final String AOT_CACHE = "@agent-j25.aot";
  static final String APPCDS_ARCHIVE = "@agent-j17.jsa";

  static final Map<String, List<String>> FLAG_SETS = new LinkedHashMap<>();

  static {
    FLAG_SETS.put("jvm-defaults", List.of());
    FLAG_SETS.put("tuned", List.of("-Xmx24m", "-Xms8m", "-Xss256k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=16m", "-XX:MaxMetaspaceSize=64m", "-XX:-UsePerfData",
        "-XX:MaxDirectMemorySize=8m", "-Xshare:auto"));
    List<String> vfork = new ArrayList<>(FLAG_SETS.get("tuned"));
    vfork.add("-Djdk.lang.Process.launchMechanism=VFORK");
    FLAG_SETS.put("tuned-vfork", List.copyOf(vfork));
    List<String> lazyJit = new ArrayList<>(FLAG_SETS.get("tuned"));
    lazyJit.add("-XX:CompileThresholdScaling=10");
    FLAG_SETS.put("tuned-jit10", List.copyOf(lazyJit));
    FLAG_SETS.put("tuned-small", List.of("-Xmx16m", "-Xms4m", "-Xss228k", "-XX:+UseSerialGC", "-XX:MinHeapFreeRatio=10",
        "-XX:MaxHeapFreeRatio=20", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=8m",
        "-XX:MaxMetaspaceSize=48m", "-XX:CompressedClassSpaceSize=16m", "-XX:-UsePerfData", "-XX:MaxDirectMemorySize=4m",
        "-Xshare:auto"));
    // Java 25 (JAVA25_HOME): the tuned flags; + compact object headers (JEP 519); + the AOT cache of
    // a training run (JEP 483/514: classes loaded and linked ahead of time).
    FLAG_SETS.put("j25", FLAG_SETS.get("tuned"));
    FLAG_SETS.put("j25-coh", with(FLAG_SETS.get("tuned"), "-XX:+UseCompactObjectHeaders"));
    // -XX:AOTCache replaces -Xshare:auto (the JVM refuses both): the cache holds the JDK's classes too
    FLAG_SETS.put("j25-coh-aot", with(withoutShare(FLAG_SETS.get("j25-coh")), "-XX:AOTCache=" + AOT_CACHE));
    // the same with the heap, code cache and metaspace caps cut to what the 10-minute runs used, and
    // glibc's free memory given back every 10 s (JDK-8293114)
    FLAG_SETS.put("j25-small", with(withoutShare(List.of("-Xmx16m", "-Xms6m", "-Xss256k", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=10m", "-XX:MaxMetaspaceSize=48m",
        "-XX:-UsePerfData", "-XX:MaxDirectMemorySize=8m", "-XX:+UseCompactObjectHeaders", "-XX:TrimNativeHeapInterval=10000")),
        "-XX:AOTCache=" + AOT_CACHE));
    // Java 17 with an application class-data archive of a training run (dynamic AppCDS)
    FLAG_SETS.put("tuned-appcds", with(FLAG_SETS.get("tuned"), "-XX:SharedArchiveFile=" + APPCDS_ARCHIVE));
    // Java 17: the archive, the 16 MiB heap and smaller code cache of j25-small, native heap trimmed
    FLAG_SETS.put("j17-small", List.of("-Xmx16m", "-Xms6m", "-Xss256k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=10m", "-XX:MaxMetaspaceSize=48m", "-XX:-UsePerfData",
        "-XX:MaxDirectMemorySize=8m", "-XX:TrimNativeHeapInterval=10000", "-Xshare:auto", "-XX:SharedArchiveFile=" + APPCDS_ARCHIVE));
    // the agent jar of FOOTPRINT_BEFORE_JAR (an earlier build) with the tuned flags: the code before a change
    FLAG_SETS.put("before", FLAG_SETS.get("tuned"));
    // the launcher's flags with config variants (see CONFIG_VARIANTS): nvidia-smi's loop mode (a
    // stand-in process, agents/bench/nvidia-smi-loop-standin.sh) instead of one process per round;
    // and that with a 16 KiB producer batch.size instead of 64 KiB
    FLAG_SETS.put("j17-small-stream", FLAG_SETS.get("j17-small"));
    FLAG_SETS.put("j17-small-stream-b16k", FLAG_SETS.get("j17-small"));
    // and with zstd instead of lz4 (Kafka's lz4 stream allocates two 64 KiB block buffers per batch)
    FLAG_SETS.put("j17-small-stream-zstd", FLAG_SETS.get("j17-small"));
  }

  /** Config lines a flag set's agent gets besides the scenario's, by name suffix. */
  static final Map<String, String> CONFIG_VARIANTS = Map.of("-stream", "stream", "-b16k", "batch16k", "-zstd", "zstd");

  /** Whether flag set {@code name} runs the variant {@code v} of CONFIG_VARIANTS. */
  static boolean variant(String name, String v) {
    for (var e : CONFIG_VARIANTS.entrySet()) if (e.getValue().equals(v) && name.contains(e.getKey())) return true;
    return false;
  }

  static List<String> withoutShare(List<String> flags) {
    return flags.stream().filter(f -> !f.startsWith("-Xshare")).toList();
  }

  static List<String> with(List<String> flags, String... more) {
    List<String> out = new ArrayList<>(flags);
    out.addAll(List.of(more));
    return List.copyOf(out);
  }

  /** The java launcher of a flag set: Temurin 25 (JAVA25_HOME) for the j25 sets, else this JVM's. */
  static String javaFor(String name) {
    String home = name.startsWith("j25") ? System.getenv().getOrDefault("JAVA25_HOME", "") : System.getProperty("java.home");
    if (home.isBlank()) throw new IllegalStateException("flag set " + name + " needs JAVA25_HOME (a Java 25 JDK)");
    return Path.of(home, "bin", "java").toString();
  }

  /** The flags of {@code name} with the archive placeholders resolved under {@code work}. */
  static List<String> flags(String name, Path work) {
    List<String> out = new ArrayList<>();
    for (String f : FLAG_SETS.getOrDefault(name, FLAG_SETS.get("tuned"))) {
      int at = f.indexOf('@');
      out.add(at < 0 ? f : f.substring(0, at) + work.resolve(f.substring(at + 1)));
    }
    if (!System.getenv().getOrDefault("FOOTPRINT_NMT", "").isBlank()) out.add("-XX:NativeMemoryTracking=summary");
    return out;
  }

  /** With FOOTPRINT_CLASSLOG=1: each agent logs the classes it loads to classes.log in its directory. */
  static List<String> classLog(Path dir) {
    return System.getenv().getOrDefault("FOOTPRINT_CLASSLOG", "").isBlank() ? List.of()
        : List.of("-Xlog:class+load=info:file=" + dir.resolve("classes.log"));
  }

  /**
   * Processes measured beside the agents, all with the {@code tuned} flags: the JVM doing nothing,
   * the JVM doing the agent's I/O without agent code ({@link JvmFloor}), and the agent printing its
   * records instead of publishing them ({@code --dry-run}: collectors without Avro, spool or Kafka).
   */
  static final List<String> PROBES = List.of("floor-idle", "floor-io", "tuned-dry-run");

  /** What runs after the JVM flags: the publishing agent for a flag set, or the probe. */
  static List<String> command(String name, Path work, Path jar, Path cfg) {
    String testClasses = Path.of(JvmFloor.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString();
    return switch (name) {
      case "floor-idle" -> List.of("-cp", testClasses, JvmFloor.class.getName(), "idle");
      case "floor-io" -> List.of("-cp", testClasses, JvmFloor.class.getName(), "io", work.resolve("gpus.csv").toString(),
          work.resolve("sys").toString());
      case "tuned-dry-run" -> List.of("-jar", jar.toString(), "--config", cfg.toString(), "--dry-run");
      case "before" -> List.of("-jar", beforeJar().toString(), "--config", cfg.toString());
      default -> List.of("-jar", jar.toString(), "--config", cfg.toString());
    };
  }

  /**
   * What the agent polls ({@code -Dscenario=}): {@code node_1s}, 8 GPUs + 8 HCAs at 1 s;
   * {@code node_10s_16hca}, 8 GPUs + 16 HCAs at 10 s; {@code facility_20}, a facility agent polling
   * 20 devices over HTTP Redfish with basic auth (CDUs every 10 s, PDUs every 30 s) (10 PDUs served from the DMTF public-pdu
   * mockup, 10 CDUs from the public-cooling-unit mockup, one local server each). The node scenarios
   * also run the checkpoint endpoint; all run the spool and /metrics.
   */
  enum Scenario {
    NODE_1S("1s", 8), NODE_10S_16HCA("10s", 16), FACILITY_20("10s", 0);

    final String interval;
    final int hcas;

    Scenario(String interval, int hcas) {
      this.interval = interval;
      this.hcas = hcas;
    }
  }

  interface ConfigWriter {
    String write(Path work, Path dir, String bootstrap, String registry, String flagSet);
  }

  static ConfigWriter configure;

  static Path beforeJar() {
    String j = System.getenv().getOrDefault("FOOTPRINT_BEFORE_JAR", "");
    if (j.isBlank()) throw new IllegalStateException("flag set before needs FOOTPRINT_BEFORE_JAR (the earlier agent jar)");
    return Path.of(j).toAbsolutePath();
  }

  record Sample(long rssKiB, long ticks, long childTicks, long nanos) {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]).toAbsolutePath();
    Path jar = Path.of(args[1]).toAbsolutePath();
    int seconds = Integer.parseInt(args[2]);
    int runs = Integer.parseInt(args[3]);
    Path examples = Path.of(args.length > 4 ? args[4] : "agents/examples").toAbsolutePath();
    Files.createDirectories(work);
    Scenario scenario = Scenario.valueOf(System.getProperty("scenario", "node_1s").toUpperCase(java.util.Locale.ROOT));
    prepareInputs(work, examples, scenario.hcas);
    List<io.fleetscope.agent.collectors.redfish.MockupServer> devices = new ArrayList<>();
    if (scenario == Scenario.FACILITY_20) {
      devices.add(io.fleetscope.agent.collectors.redfish.MockupServer.ofResource("/pdu/dmtf-public-pdu", "bench", "bench-pass"));
      devices.add(io.fleetscope.agent.collectors.redfish.MockupServer.ofResource("/coolant/dmtf-public-cooling-unit", "bench", "bench-pass"));
      configure = (w, d, b, r, n) -> facilityConfig(d, b, r, devices.get(0).baseUrl(), devices.get(1).baseUrl());
    } else {
      Path standin = examples.resolveSibling("bench").resolve("nvidia-smi-loop-standin.sh");
      configure = (w, d, b, r, n) -> config(w, d, b, r, scenario.interval, variant(n, "stream") ? standin : null,
          variant(n, "batch16k"), variant(n, "zstd") ? "zstd" : "lz4");
    }
    System.out.println("scenario=" + scenario.name().toLowerCase(java.util.Locale.ROOT));
    LocalKafka kafka = LocalKafka.start(LocalKafka.Config.defaults(work.resolve("kafka")));
    Map<String, List<double[]>> results = new LinkedHashMap<>();
    SchemaRegistryServer registry = null;
    try {
      registry = SchemaRegistryServer.start(kafka.bootstrapServers(), 0);
      train(work, jar, kafka.bootstrapServers(), registry.url());
      for (int run = 1; run <= runs; run++) {
        Map<String, Process> procs = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(FLAG_SETS.keySet());
        names.addAll(PROBES);
        for (String name : names) {
          if (!selected(name)) continue;
          Path dir = work.resolve("run" + run + "-" + name);
          Files.createDirectories(dir);
          Path cfg = dir.resolve("agent.yaml");
          Files.writeString(cfg, configure.write(work, dir, kafka.bootstrapServers(), registry.url(), name));
          List<String> cmd = new ArrayList<>(List.of(javaFor(name)));
          cmd.addAll(flags(name, work));
          cmd.addAll(classLog(dir));
          cmd.addAll(command(name, work, jar, cfg));
          ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile());
          if (!name.equals("jvm-defaults")) pb.environment().put("MALLOC_ARENA_MAX", "2");
          procs.put(name, pb.start());
        }
        Thread.sleep(30_000); // warm-up: start, first inventory, producer connected
        Map<String, Sample> first = new LinkedHashMap<>();
        Map<String, Map<String, Long>> firstThreads = new LinkedHashMap<>();
        Map<String, List<Long>> rss = new LinkedHashMap<>();
        for (var e : List.copyOf(procs.entrySet())) {
          if (!e.getValue().isAlive()) {
            System.out.printf("run=%d flags=%s exited during warm-up=%d (see its agent.log)%n", run, e.getKey(), e.getValue().exitValue());
            procs.remove(e.getKey());
          }
        }
        for (var e : procs.entrySet()) {
          first.put(e.getKey(), sample(e.getValue().pid()));
          firstThreads.put(e.getKey(), threadTicks(e.getValue().pid()));
          rss.put(e.getKey(), new ArrayList<>());
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
          Thread.sleep(2_000);
          for (var e : procs.entrySet()) {
            if (e.getValue().isAlive()) rss.get(e.getKey()).add(sample(e.getValue().pid()).rssKiB());
          }
        }
        for (var e : procs.entrySet()) {
          if (!e.getValue().isAlive()) {
            System.out.printf("run=%d flags=%s exited=%d (see its agent.log)%n", run, e.getKey(), e.getValue().exitValue());
            continue;
          }
          Sample a = first.get(e.getKey());
          Sample b = sample(e.getValue().pid());
          double secs = (b.nanos() - a.nanos()) / 1e9;
          double cpu = (b.ticks() - a.ticks()) / 100.0 / secs * 100;
          double cpuChildren = (b.ticks() + b.childTicks() - a.ticks() - a.childTicks()) / 100.0 / secs * 100;
          double sent = sentRecords(work.resolve("run" + run + "-" + e.getKey()).resolve("agent.log"), e.getValue());
          List<Long> r = rss.get(e.getKey());
          double medRss = median(r.stream().mapToDouble(Long::doubleValue).toArray()) / 1024.0;
          results.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(new double[] {medRss, cpu, cpuChildren, sent});
          System.out.printf("run=%d flags=%s rss_median_mib=%.1f cpu_pct=%.2f cpu_with_children_pct=%.2f records_sent=%.0f%n",
              run, e.getKey(), medRss, cpu, cpuChildren, sent);
          System.out.println("  threads: " + threadShares(firstThreads.get(e.getKey()), threadTicks(e.getValue().pid()), secs));
          if (!System.getenv().getOrDefault("FOOTPRINT_NMT", "").isBlank()) System.out.println("  nmt: " + nmt(e.getKey(), e.getValue().pid()));
          e.getValue().destroy();
          e.getValue().waitFor();
        }
      }
    } finally {
      for (var d : devices) d.close();
      if (registry != null) registry.close();
      kafka.close();
    }
    System.out.println();
    System.out.println("| JVM flags | RSS MiB (median of runs) | CPU % of one core (median) | CPU incl. child processes % | runs |");
    System.out.println("|---|---|---|---|---|");
    for (var e : results.entrySet()) {
      System.out.printf("| %s | %.1f | %.2f | %.2f | %d |%n", e.getKey(),
          median(e.getValue().stream().mapToDouble(v -> v[0]).toArray()),
          median(e.getValue().stream().mapToDouble(v -> v[1]).toArray()),
          median(e.getValue().stream().mapToDouble(v -> v[2]).toArray()), e.getValue().size());
    }
    System.out.println();
    for (var e : FLAG_SETS.entrySet()) System.out.println(e.getKey() + ": " + String.join(" ", e.getValue()));
    System.out.println("floor-idle, floor-io, tuned-dry-run: the tuned flags; see PROBES");
  }

  /**
   * Training runs for the selected sets that read an archive: the agent with the same flags for
   * {@code TRAIN_SECONDS} against the same broker, then stopped (SIGTERM); the JVM writes the AOT
   * cache (Java 25) or the dynamic AppCDS archive (Java 17) as it exits. What an install would run once.
   */
  static void train(Path work, Path jar, String bootstrap, String registry) throws Exception {
    if (selected("j25-coh-aot") || selected("j25-small")) {
      trainOne(work, jar, bootstrap, registry, "j25-coh", "-XX:AOTCacheOutput=" + work.resolve(AOT_CACHE.substring(1)));
    }
    if (selected("tuned-appcds") || selected("j17-small")) {
      trainOne(work, jar, bootstrap, registry, "tuned", "-XX:ArchiveClassesAtExit=" + work.resolve(APPCDS_ARCHIVE.substring(1)));
    }
  }

  static final int TRAIN_SECONDS = 40;

  private static void trainOne(Path work, Path jar, String bootstrap, String registry, String base, String archiveFlag) throws Exception {
    Path dir = Files.createDirectories(work.resolve("train-" + base));
    Path cfg = dir.resolve("agent.yaml");
    Files.writeString(cfg, configure.write(work, dir, bootstrap, registry, base));
    List<String> cmd = new ArrayList<>(List.of(javaFor(base)));
    // -Xshare:auto would map the JDK's default archive; the AOT cache output must start without it
    cmd.addAll(withoutShare(FLAG_SETS.get(base)));
    cmd.add(archiveFlag);
    cmd.addAll(command(base, work, jar, cfg));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
    Thread.sleep(TRAIN_SECONDS * 1000L);
    p.destroy();
    if (!p.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)) p.destroyForcibly();
    System.out.println("trained " + base + " with " + archiveFlag + " exit=" + p.exitValue());
  }

  /** The committed KiB per NMT category of {@code jcmd PID VM.native_memory summary}, one line. */
  static String nmt(String name, long pid) throws Exception {
    String jcmd = Path.of(javaFor(name)).resolveSibling("jcmd").toString();
    Process p = new ProcessBuilder(jcmd, Long.toString(pid), "VM.native_memory", "summary").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    StringBuilder s = new StringBuilder();
    Matcher m = Pattern.compile("(?m)^-?\\s*(\\S[^(\\n]*?)\\s*\\(reserved=\\d+KB, committed=(\\d+)KB").matcher(out);
    while (m.find()) s.append(m.group(1).trim().replace(' ', '_')).append('=').append(Long.parseLong(m.group(2)) / 1024.0 > 0
        ? String.format("%.1f", Long.parseLong(m.group(2)) / 1024.0) : "0").append(' ');
    Matcher cls = Pattern.compile("\\(classes #(\\d+)\\)").matcher(out);
    if (cls.find()) s.append("classes=").append(cls.group(1));
    return s.toString().trim();
  }

  /** {@code -Dflags=a,b} runs only those flag sets (all of them by default). */
  static boolean selected(String name) {
    String only = System.getProperty("flags", "");
    return only.isBlank() ? !PROBES.contains(name) : Arrays.asList(only.split(",")).contains(name);
  }

  /**
   * CPU ticks per thread name (threads with the same name, e.g. one per command run, are summed;
   * digits are folded so "C1 CompilerThread0" and "...1" count together).
   */
  static Map<String, Long> threadTicks(long pid) throws IOException {
    Map<String, Long> out = new LinkedHashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      for (Path t : (Iterable<Path>) tasks::iterator) {
        String stat;
        try {
          stat = Files.readString(t.resolve("stat"));
        } catch (IOException gone) {
          continue; // the thread ended between the listing and the read
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+", "N");
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        out.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
      }
    }
    return out;
  }

  /**
   * The threads' CPU over the run as % of one core, largest first. Threads that ended during the run
   * are not in either listing, so the sum can be below the process figure; the gap is printed as
   * "ended".
   */
  static String threadShares(Map<String, Long> a, Map<String, Long> b, double secs) {
    List<Map.Entry<String, Long>> d = new ArrayList<>();
    for (var e : b.entrySet()) {
      long delta = e.getValue() - a.getOrDefault(e.getKey(), 0L);
      if (delta > 0) d.add(Map.entry(e.getKey(), delta));
    }
    d.sort((x, y) -> Long.compare(y.getValue(), x.getValue()));
    StringBuilder s = new StringBuilder();
    for (var e : d) s.append(String.format("%s=%.2f%% ", e.getKey().replace(' ', '_'), e.getValue() / 100.0 / secs * 100));
    return s.toString().trim();
  }

  static double sentRecords(Path log, Process p) throws IOException {
    Matcher m = Pattern.compile("metrics listening address=127.0.0.1 port=(\\d+)").matcher(Files.readString(log));
    if (!m.find()) return -1;
    var c = (java.net.HttpURLConnection) java.net.URI.create("http://127.0.0.1:" + m.group(1) + "/metrics").toURL().openConnection();
    String body = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    Matcher s = Pattern.compile("(?m)^fleetscope_agent_records_sent_total (\\S+)$").matcher(body);
    return s.find() ? Double.parseDouble(s.group(1)) : -1;
  }

  static Sample sample(long pid) throws IOException {
    long rss = 0;
    for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (l.startsWith("VmRSS:")) rss = Long.parseLong(l.replaceAll("\\D+", ""));
    }
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields after the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14)
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    long child = Long.parseLong(f[13]) + Long.parseLong(f[14]) + liveChildTicks(pid);
    return new Sample(rss, ticks, child, System.nanoTime());
  }

  /**
   * CPU ticks of the running descendants (a long-running child such as nvidia-smi's loop mode is in
   * cutime/cstime only once it has exited and been waited for).
   */
  static long liveChildTicks(long pid) {
    long sum = 0;
    for (ProcessHandle d : (Iterable<ProcessHandle>) ProcessHandle.of(pid).map(ProcessHandle::descendants).orElse(Stream.empty())::iterator) {
      try {
        String stat = Files.readString(Path.of("/proc/" + d.pid() + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
      } catch (IOException | RuntimeException gone) {
        // ended between the listing and the read: its ticks go to cutime once it is waited for
      }
    }
    return sum;
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /** 8 GPUs: the captured H200 load row for indices 0..7; 8 HCAs: the captured mlx5_0 port as mlx5_0..7. */
  static void prepareInputs(Path work, Path examples, int hcas) throws IOException {
    List<String> lines = Files.readAllLines(examples.resolve("captures/nvidia-smi/h200-capture.txt"));
    int at = -1;
    for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith("# load :: query-gpu")) at = i;
    int header = at;
    while (!lines.get(header).startsWith("timestamp")) header++;
    String head = lines.get(header);
    String row = lines.get(header + 1);
    int idx = Arrays.asList(head.split(", ")).indexOf("index");
    StringBuilder csv = new StringBuilder(head).append('\n');
    for (int g = 0; g < 8; g++) {
      String[] cells = row.split(", ", -1);
      cells[idx] = Integer.toString(g);
      csv.append(String.join(", ", cells)).append('\n');
    }
    Files.writeString(work.resolve("gpus.csv"), csv);
    Path src = examples.resolve("captures/sys/class/infiniband/mlx5_0");
    for (int h = 0; h < hcas; h++) {
      Path dst = work.resolve("sys/class/infiniband/mlx5_" + h);
      try (Stream<Path> s = Files.walk(src)) {
        for (Path p : (Iterable<Path>) s::iterator) {
          Path t = dst.resolve(src.relativize(p).toString());
          if (Files.isDirectory(p)) Files.createDirectories(t);
          else Files.copy(p, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    Files.writeString(work.resolve("kern.log"), "");
    Files.copy(examples.resolve("captures/nvidia-smi/a100-sxm4-v12.xml"), work.resolve("gpus.xml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  static String facilityConfig(Path dir, String bootstrap, String registry, String pduUrl, String cduUrl) {
    StringBuilder pdus = new StringBuilder();
    StringBuilder cdus = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      pdus.append("    - {device: pdu-").append(i).append(", rack: r").append(i).append(", base_url: \"").append(pduUrl)
          .append("\", username: bench, password: bench-pass}\n");
      cdus.append("    - {device: cdu-").append(i).append(", racks: [r").append(i).append("], base_url: \"").append(cduUrl)
          .append("\", username: bench, password: bench-pass, loops: {primary-1: facility-loop, secondary-1: secondary}}\n");
    }
    return String.join("\n",
        "cluster: bench",
        "node: bench-facility",
        "interval: 10s",
        "kafka: {bootstrap: \"" + bootstrap + "\", registry_url: \"" + registry + "\", compression: lz4}",
        "spool: {dir: " + dir.resolve("spool") + "}",
        "metrics: {port: 0}",
        "nvidia_smi: {enabled: false}",
        "xid: {enabled: false}",
        "ib: {enabled: false}",
        "inventory: {enabled: false}",
        "pdu:",
        "  enabled: true",
        "  interval: 30s", // as agents/examples/facility.yaml; ten PDUs of ~50 Redfish GETs each
        "  timeout: 25s",
        "  redfish:",
        pdus.toString(),
        "coolant:",
        "  enabled: true",
        "  redfish:",
        cdus.toString(),
        "");
  }

  /**
   * @param standin the nvidia-smi loop-mode stand-in script, or null for one {@code cat} per round
   * @param batch16k a 16 KiB producer batch.size instead of the default
   * @param compression the producer's compression (lz4 or zstd)
   */
  static String config(Path work, Path dir, String bootstrap, String registry, String interval, Path standin, boolean batch16k,
      String compression) {
    String gpus = standin == null ? "nvidia_smi: {command: [cat, " + work.resolve("gpus.csv") + "]}"
        : "nvidia_smi: {stream: true, stream_command: [" + standin + ", " + work.resolve("gpus.csv") + ", \"{interval_ms}\"]}";
    return String.join("\n",
        "cluster: bench",
        "node: bench-node",
        "interval: " + interval,
        "paths: {sys: " + work.resolve("sys") + "}",
        "kafka: {bootstrap: \"" + bootstrap + "\", registry_url: \"" + registry + "\", compression: " + compression
            + (batch16k ? ", batch_size: 16KiB" : "") + "}",
        "spool: {dir: " + dir.resolve("spool") + "}",
        "metrics: {port: 0}",
        gpus,
        "ib: {}",
        "xid: {file: " + work.resolve("kern.log") + ", pci_map_command: [cat, " + work.resolve("gpus.csv") + "]}",
        "inventory: {interval: 60s, gpu_command: [cat, " + work.resolve("gpus.xml") + "]}",
        "ckpt: {enabled: true, port: 0}",
        "");
  }
}
