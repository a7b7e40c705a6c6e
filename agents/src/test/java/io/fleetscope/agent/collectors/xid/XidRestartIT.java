package io.fleetscope.agent.collectors.xid;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.publish.RecordCodec;
import io.fleetscope.agent.publish.Spool;
import io.fleetscope.agent.publish.SpoolEntry;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real agent process follows a kernel log while an XID burst is written to it; it is killed
 * (SIGKILL) mid-burst and started again while the burst goes on. Every XID line must be in the
 * spool exactly once (by its content), with the kernel line's own time as ts. Kafka is a closed
 * port, so the spool keeps everything for the count.
 */
class XidRestartIT {
  static final int LINES = 600;
  static final long T0 = Instant.parse("2026-11-30T12:00:00Z").toEpochMilli();

  static String line(int i) {
    String ts = Instant.ofEpochMilli(T0 + i * 7L).toString().replace("Z", "+00:00");
    return ts + " gpu-007 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=" + (10_000 + i) + ", name=train, GPU has fallen off the bus.\n";
  }

  @Test
  void everyXidLineOnceWithItsKernelTimeAcrossAKillMidBurst(@TempDir Path tmp) throws Exception {
    Path kern = tmp.resolve("kern.log");
    Files.writeString(kern, "");
    Path spool = tmp.resolve("spool");
    int closedPort;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = s.getLocalPort();
    }
    Path config = tmp.resolve("agent.yaml");
    Files.writeString(config, """
        cluster: it
        node: gpu-007
        interval: 100ms
        kafka:
          bootstrap: 127.0.0.1:%d
          registry_url: http://127.0.0.1:%d
        spool:
          dir: %s
        metrics:
          enabled: false
        nvidia_smi:
          enabled: false
        ib:
          enabled: false
        inventory:
          enabled: false
        xid:
          file: %s
          start_at: beginning
          timeout: 5s                 # a loaded test machine: the 100 ms default deadline would discard rounds
          pci_map_command: []
          pci_to_gpu: {"0000:3b:00": 3}
        """.formatted(closedPort, closedPort, spool, kern));

    Process first = start(config, tmp.resolve("agent-1.log"));
    int written = 0;
    try {
      written = writeBurst(kern, written, 300);
      awaitSpooled(spool, 50, Duration.ofSeconds(60), first);   // mid-burst: some spooled, more coming
      written = writeBurst(kern, written, 100);
      first.destroyForcibly().waitFor();                      // SIGKILL, no shutdown hook
    } finally {
      first.destroyForcibly();
    }
    written = writeBurst(kern, written, 100);                  // logged while the agent is down
    Process second = start(config, tmp.resolve("agent-2.log"));
    try {
      written = writeBurst(kern, written, LINES - written);
      awaitSpooled(spool, LINES, Duration.ofSeconds(90), second);
      Thread.sleep(1_000);                                     // rounds after the last line: nothing more may come
    } finally {
      second.destroy();
      second.waitFor();
    }

    List<GpuXid> xids = spooledXids(spool);
    Map<Long, Integer> byPid = new TreeMap<>();
    for (GpuXid x : xids) byPid.merge(x.getPid(), 1, Integer::sum);
    Map<Long, Integer> dupes = new HashMap<>();
    byPid.forEach((pid, n) -> {
      if (n != 1) dupes.put(pid, n);
    });
    assertThat(dupes).as("no XID line twice").isEmpty();
    assertThat(byPid.keySet()).as("every XID line once").hasSize(LINES).first().isEqualTo(10_000L);
    for (GpuXid x : xids) {
      int i = (int) (x.getPid() - 10_000);
      assertThat(x.getTs()).as("ts of line %d is the kernel's time", i).isEqualTo(T0 + i * 7L);
      assertThat(x.getGpu()).isEqualTo(3);
    }
    assertThat(Files.readString(tmp.resolve("agent-2.log"))).contains("xid following").contains("from=saved");
  }

  /** A node booting before DNS: the agent process starts, spools and says which names it waits for. */
  @Test
  void agentProcessStartsAndSpoolsWhenTheBrokerNamesDoNotResolve(@TempDir Path tmp) throws Exception {
    Path kern = tmp.resolve("kern.log");
    Files.writeString(kern, "");
    Path config = tmp.resolve("agent.yaml");
    Files.writeString(config, """
        cluster: it
        node: gpu-008
        interval: 100ms
        kafka:
          bootstrap: kafka-0.invalid:9092,kafka-1.invalid:9092
          registry_url: http://schema-registry.invalid:8081
        spool:
          dir: %s
        metrics:
          enabled: false
        nvidia_smi:
          enabled: false
        ib:
          enabled: false
        inventory:
          enabled: false
        xid:
          file: %s
          start_at: beginning
          timeout: 5s                 # a loaded test machine: the 100 ms default deadline would discard rounds
          pci_map_command: []
        """.formatted(tmp.resolve("spool"), kern));
    Process agent = start(config, tmp.resolve("agent.log"));
    try {
      writeBurst(kern, 0, 50);
      awaitSpooled(tmp.resolve("spool"), 50, Duration.ofSeconds(60), agent);
      assertThat(agent.isAlive()).isTrue();
    } finally {
      agent.destroy();
      agent.waitFor();
    }
    String log = Files.readString(tmp.resolve("agent.log"));
    assertThat(log).contains("kafka not reachable at start, spooling and retrying bootstrap=kafka-0.invalid:9092,kafka-1.invalid:9092 "
        + "unresolved=kafka-0.invalid:9092,kafka-1.invalid:9092").doesNotContain("Failed to construct kafka producer");
    assertThat(log.lines().filter(l -> l.contains("kafka not reachable at start")).count()).as("said once, not per retry").isEqualTo(1);
  }

  static Process start(Path config, Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-Xmx96m", "-cp", System.getProperty("java.class.path"),
        "io.fleetscope.agent.AgentMain", "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** Appends {@code n} lines from line {@code from}, in small chunks (a burst spread over rounds). */
  static int writeBurst(Path kern, int from, int n) throws Exception {
    for (int i = from; i < from + n; i += 10) {
      StringBuilder b = new StringBuilder();
      for (int j = i; j < Math.min(i + 10, from + n); j++) b.append(line(j));
      Files.writeString(kern, b, StandardOpenOption.APPEND);
      Thread.sleep(20);
    }
    return from + n;
  }

  static void awaitSpooled(Path spool, int n, Duration max, Process agent) throws Exception {
    long end = System.nanoTime() + max.toNanos();
    while (spooledXids(spool).size() < n) {
      if (!agent.isAlive()) throw new AssertionError("agent exited with " + agent.exitValue());
      if (System.nanoTime() > end) throw new AssertionError("timed out waiting for " + n + " spooled XIDs, have " + spooledXids(spool).size());
      Thread.sleep(100);
    }
  }

  /** Every GpuXid in the spool segments (nothing was sent: the broker port is closed), read without the agent's locks. */
  static List<GpuXid> spooledXids(Path spool) throws Exception {
    List<GpuXid> out = new ArrayList<>();
    if (!Files.isDirectory(spool)) return out;
    List<Path> segments;
    try (var s = Files.list(spool)) {
      segments = s.filter(p -> p.toString().endsWith(".spool")).sorted().toList();
    }
    for (Path seg : segments) {
      for (SpoolEntry e : Spool.readSegmentFile(seg)) {
        if (e.topic().equals(Topics.GPU_XID)) out.add((GpuXid) RecordCodec.decode(e));
      }
    }
    return out;
  }
}
