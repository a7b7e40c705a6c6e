package io.fleetscope.agent.bench;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.publish.Publisher;
import io.fleetscope.agent.publish.SeqStore;
import io.fleetscope.agent.publish.Spool;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU cost of the spool's fsync (not a test). Appends rounds of 16 records (one collector's round)
 * through the Publisher: once forcing every append ({@code fsync_interval: 0s}), once never forcing
 * the spool (interval of a day), and times {@link SeqStore#reserve} (which forces the agent_seq
 * file). Prints CPU microseconds per append and per reserve (process CPU, user + system, all
 * threads), from which the cost at the agent's rate follows.
 *
 * <p>Args: DIR [APPENDS]. DIR must be on the file system under test (the agent's spool disk).
 */
public final class SpoolFsyncBench {
  private SpoolFsyncBench() {}

  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static List<AgentRecord> round() {
    List<AgentRecord> out = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      out.add(new AgentRecord(Topics.GPU_XID, "node-a", GpuXid.newBuilder().setTs(1767225600000L + i).setCluster("c").setNode("node-a")
          .setAgentSeq(0L).setXid(79).setGpu(i % 8).setPciBusId("0000:3b:00").setMessage("pid=1234, name=python3, GPU has fallen off the bus.").build()));
    }
    return out;
  }

  static double perAppendMicros(Path dir, Duration interval, int appends) throws Exception {
    Files.createDirectories(dir);
    try (Publisher p = new Publisher(dir, 1L << 30, 4L << 20, new SelfMetrics(), new Spool.Options(interval, FileChannel::open, () -> { }))) {
      for (int i = 0; i < 200; i++) p.accept("bench", round());   // warm-up
      long c0 = cpuNanos();
      for (int i = 0; i < appends; i++) p.accept("bench", round());
      return (cpuNanos() - c0) / 1e3 / appends;
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
    double forced = perAppendMicros(dir.resolve("forced"), Duration.ZERO, n);
    double unforced = perAppendMicros(dir.resolve("unforced"), Duration.ofDays(1), n);
    SeqStore seqs = new SeqStore(dir.resolve("seq"));
    for (int i = 0; i < 200; i++) seqs.reserve(16);
    long c0 = cpuNanos();
    for (int i = 0; i < n; i++) seqs.reserve(16);
    double reserve = (cpuNanos() - c0) / 1e3 / n;
    System.out.printf("append_us_forced=%.1f append_us_unforced=%.1f spool_force_us=%.1f seq_reserve_us=%.1f appends=%d%n",
        forced, unforced, forced - unforced, reserve, n);
  }
}
