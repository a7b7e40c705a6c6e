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
      default -> List.of("-jar", jar.toString(), "--config", cfg.toString());
    };
  }

  record Sample(long rssKiB, long ticks, long childTicks, long nanos) {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]).toAbsolutePath();
    Path jar = Path.of(args[1]).toAbsolutePath();
    int seconds = Integer.parseInt(args[2]);
    int runs = Integer.parseInt(args[3]);
    Path examples = Path.of(args.length > 4 ? args[4] : "agents/examples").toAbsolutePath();
    Files.createDirectories(work);
    prepareInputs(work, examples);
    LocalKafka kafka = LocalKafka.start(LocalKafka.Config.defaults(work.resolve("kafka")));
    Map<String, List<double[]>> results = new LinkedHashMap<>();
    SchemaRegistryServer registry = null;
    try {
      registry = SchemaRegistryServer.start(kafka.bootstrapServers(), 0);
      for (int run = 1; run <= runs; run++) {
        Map<String, Process> procs = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(FLAG_SETS.keySet());
        names.addAll(PROBES);
        for (String name : names) {
          if (!selected(name)) continue;
          Path dir = work.resolve("run" + run + "-" + name);
          Files.createDirectories(dir);
          Path cfg = dir.resolve("agent.yaml");
          Files.writeString(cfg, config(work, dir, kafka.bootstrapServers(), registry.url()));
          List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
          cmd.addAll(FLAG_SETS.getOrDefault(name, FLAG_SETS.get("tuned")));
          cmd.addAll(command(name, work, jar, cfg));
          ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile());
          if (!name.equals("jvm-defaults")) pb.environment().put("MALLOC_ARENA_MAX", "2");
          procs.put(name, pb.start());
        }
        Thread.sleep(30_000); // warm-up: start, first inventory, producer connected
        Map<String, Sample> first = new LinkedHashMap<>();
        Map<String, Map<String, Long>> firstThreads = new LinkedHashMap<>();
        Map<String, List<Long>> rss = new LinkedHashMap<>();
        for (var e : procs.entrySet()) {
          first.put(e.getKey(), sample(e.getValue().pid()));
          firstThreads.put(e.getKey(), threadTicks(e.getValue().pid()));
          rss.put(e.getKey(), new ArrayList<>());
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
          Thread.sleep(2_000);
          for (var e : procs.entrySet()) rss.get(e.getKey()).add(sample(e.getValue().pid()).rssKiB());
        }
        for (var e : procs.entrySet()) {
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
          e.getValue().destroy();
          e.getValue().waitFor();
        }
      }
    } finally {
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
    long child = Long.parseLong(f[13]) + Long.parseLong(f[14]);
    return new Sample(rss, ticks, child, System.nanoTime());
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /** 8 GPUs: the captured H200 load row for indices 0..7; 8 HCAs: the captured mlx5_0 port as mlx5_0..7. */
  static void prepareInputs(Path work, Path examples) throws IOException {
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
    for (int h = 0; h < 8; h++) {
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

  static String config(Path work, Path dir, String bootstrap, String registry) {
    return String.join("\n",
        "cluster: bench",
        "node: bench-node",
        "interval: 1s",
        "paths: {sys: " + work.resolve("sys") + "}",
        "kafka: {bootstrap: \"" + bootstrap + "\", registry_url: \"" + registry + "\", compression: lz4}",
        "spool: {dir: " + dir.resolve("spool") + "}",
        "metrics: {port: 0}",
        "nvidia_smi: {command: [cat, " + work.resolve("gpus.csv") + "]}",
        "ib: {}",
        "xid: {file: " + work.resolve("kern.log") + ", pci_map_command: [cat, " + work.resolve("gpus.csv") + "]}",
        "inventory: {interval: 60s, gpu_command: [cat, " + work.resolve("gpus.xml") + "]}",
        "");
  }
}
