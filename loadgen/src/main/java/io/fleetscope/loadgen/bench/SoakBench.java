package io.fleetscope.loadgen.bench;

import io.fleetscope.loadgen.output.JsonLinesSink;
import io.fleetscope.loadgen.scenario.HealthySoak;
import io.fleetscope.loadgen.score.FiringAnomaly;
import io.fleetscope.loadgen.score.SoakScore;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.loadgen.sim.SimRun;
import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bench detect --soak}: the {@link HealthySoak} scenario simulated once and analyzed in
 * chunks, because the bounded analyzer holds its whole input in memory. Chunk k scores the time
 * [k * chunk, (k + 1) * chunk); its input starts {@code warmup} earlier (the analytics' windows and
 * baselines fill there; what fires there is the previous chunk's) with the compacted topics
 * (inventory, jobs) as they stood then, and holds every record released in those ticks in the
 * simulator's order, late ones included. One pass of the simulator writes at most two chunk files
 * at a time; each is deleted once analyzed.
 */
public final class SoakBench {
  private static final Logger log = LoggerFactory.getLogger(SoakBench.class);

  /** What to run; {@link #defaults} documents the defaults. */
  public record Options(Duration duration, Duration interval, int nodes, long seed, Duration chunk, Duration warmup,
      Path workDir, java.util.Set<Integer> onlyChunks, boolean keepInput) {

    public Options(Duration duration, Duration interval, int nodes, long seed, Duration chunk, Duration warmup,
        Path workDir) {
      this(duration, interval, nodes, seed, chunk, warmup, workDir, java.util.Set.of(), false);
    }

    public Options {
      onlyChunks = onlyChunks == null ? java.util.Set.of() : java.util.Set.copyOf(onlyChunks);
    }

    /** 125 nodes (1,000 GPUs), 10 s samples, seed 1, 2 h chunks with a 10 min warm-up, every chunk, inputs deleted. */
    public static Options defaults(Duration duration, Path workDir) {
      return new Options(duration, Duration.ofSeconds(10), HealthySoak.DEFAULT_NODES, 1, Duration.ofHours(2),
          Duration.ofMinutes(10), workDir);
    }

    /** Whether chunk {@code index} is analyzed (every one unless {@link #onlyChunks} names some). */
    boolean analyzes(int index) {
      return onlyChunks.isEmpty() || onlyChunks.contains(index);
    }
  }

  /** The score, and what it took: records simulated, bytes of chunk input written, analyze time. */
  public record Result(SoakScore score, long startMs, long records, long bytes, long analyzeMs, int chunks) {}

  /** Simulated time of the analyzed chunks: what the score's GPU-days count. */
  private long scoredMs;

  private final Options o;
  private final Analyzer analyzer;

  public SoakBench(Options o, Analyzer analyzer) {
    this.o = o;
    this.analyzer = analyzer;
  }

  /** When the soak starts: noon UTC, so that a soak of a few hours already rides the afternoon's facility load. */
  public static final java.time.Instant START = java.time.Instant.parse("2026-01-01T12:00:00Z");

  /** The simulator configuration of the soak. */
  public SimConfig config() {
    return SimConfig.of(o.nodes(), HealthySoak.of(o.nodes(), o.duration(), o.seed()), o.seed())
        .withInterval(o.interval().toMillis()).withStart(START.toEpochMilli());
  }

  public Result run() throws Exception {
    Files.createDirectories(o.workDir());
    FleetSimulator sim = new FleetSimulator(config());
    long start = sim.config().startMs();
    long end = sim.config().endMs();
    long chunkMs = o.chunk().toMillis();
    long warmupMs = Math.min(o.warmup().toMillis(), chunkMs);
    Map<String, SimRecord> compacted = new LinkedHashMap<>();
    List<FiringAnomaly> firing = new ArrayList<>();
    List<Chunk> open = new ArrayList<>();
    long records = 0;
    long bytes = 0;
    long analyzeMs = 0;
    int chunks = 0;
    int next = 0;
    List<SimRecord> initial = sim.initialRecords();
    initial.forEach(r -> compacted.put(r.topic() + "/" + r.key(), r));
    SimRun run = sim.run();
    while (run.hasNextTick() || !run.drained()) {
      long ts = run.hasNextTick() ? run.nextTickTs() : end;
      while (start + next * chunkMs < end && ts >= start + next * chunkMs - warmupMs) {
        if (o.analyzes(next)) { // a chunk not asked for is simulated (the fleet's state carries on) but not written
          open.add(new Chunk(next, start + next * chunkMs, Math.min(end, start + (next + 1) * chunkMs),
              o.workDir().resolve("soak-" + next + ".jsonl"), compacted.values()));
        }
        next++;
      }
      while (!open.isEmpty() && ts >= open.get(0).to && run.hasNextTick()) {
        Chunk c = open.remove(0);
        bytes += c.close();
        analyzeMs += c.analyze(firing);
        chunks++;
      }
      if (open.isEmpty() && !o.onlyChunks().isEmpty() && next > java.util.Collections.max(o.onlyChunks())) {
        break; // every chunk asked for is analyzed: the rest of the day is not needed
      }
      List<SimRecord> batch = run.hasNextTick() ? run.advance() : run.drain();
      records += batch.size();
      for (SimRecord r : batch) {
        if (r.topic().equals(Topics.INVENTORY) || r.topic().equals(Topics.JOBS)) {
          compacted.put(r.topic() + "/" + r.key(), r);
        }
        for (Chunk c : open) {
          c.sink.accept(r);
        }
      }
    }
    for (Chunk c : open) {
      bytes += c.close();
      analyzeMs += c.analyze(firing);
      chunks++;
    }
    SoakScore score = new SoakScore(sim.topology().totalGpus(), scoredMs, firing);
    log.info("bench soak done gpus={} hours={} records={} chunk_bytes={} chunks={} analyze_ms={} firing={} pages={}",
        score.gpus(), o.duration().toMinutes() / 60.0, records, bytes, chunks, analyzeMs, firing.size(), score.pages());
    return new Result(score, start, records, bytes, analyzeMs, chunks);
  }

  /** One chunk's input file, open while its ticks are simulated. */
  private final class Chunk {
    final int index;
    final long from;
    final long to;
    final Path file;
    final JsonLinesSink sink;

    Chunk(int index, long from, long to, Path file, Iterable<SimRecord> compacted) {
      this.index = index;
      this.from = from;
      this.to = to;
      this.file = file;
      this.sink = JsonLinesSink.toFile(file);
      compacted.forEach(sink::accept);
    }

    long close() throws IOException {
      sink.close();
      return Files.size(file);
    }

    /** Analyzes the chunk and adds the episodes that started in its scored time; returns the milliseconds. */
    long analyze(List<FiringAnomaly> firing) throws Exception {
      Path out = o.workDir().resolve("soak-" + index + ".analyzed.jsonl");
      long t0 = System.nanoTime();
      Files.deleteIfExists(out);
      analyzer.analyze(file, out);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      int before = firing.size();
      for (FiringAnomaly a : FiringAnomaly.read(out)) {
        if (a.startsAt() >= from && a.startsAt() < to) {
          firing.add(a);
        }
      }
      log.info("bench soak chunk={} from_ms={} to_ms={} bytes={} analyze_ms={} firing={}", index, from, to,
          Files.size(file), ms, firing.size() - before);
      scoredMs += to - from;
      if (!o.keepInput()) {
        Files.delete(file);
      }
      return ms;
    }
  }
}
