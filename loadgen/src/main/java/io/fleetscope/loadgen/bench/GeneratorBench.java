package io.fleetscope.loadgen.bench;

import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import io.fleetscope.schemas.JsonLines;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@code bench generator}: how fast the simulator produces records, as fast as it can (not paced),
 * for three output paths: records only, + JSON lines text, + Avro binary in the Confluent wire
 * format (5-byte header; no registry round trip, the id is cached in real use).
 */
public final class GeneratorBench {

  /**
   * @param recordsPerS per run, records per wall-clock second
   * @param recordsPerCpuS per run, records per CPU second of the whole JVM (all threads, GC included; robust to a busy machine)
   */
  public record Result(String mode, int gpus, long simulatedS, double[] recordsPerS, double[] recordsPerCpuS,
      long records) {
    public double median() {
      return Percentiles.median(recordsPerS);
    }

    public double medianCpu() {
      return Percentiles.median(recordsPerCpuS);
    }
  }

  private GeneratorBench() {}

  public static List<Result> run(int gpus, long simulatedS, int runs, List<String> modes) throws Exception {
    List<Result> out = new ArrayList<>();
    int nodes = (gpus + 7) / 8;
    SimConfig cfg = SimConfig.of(nodes, ScenarioLoader.load("healthy"), 1).withDuration(Duration.ofSeconds(simulatedS));
    runOnce(cfg, "sim", new Sinks()); // warm-up of the JIT, not counted
    for (String mode : modes) {
      double[] rps = new double[runs];
      double[] cpu = new double[runs];
      long n = 0;
      var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
      for (int i = 0; i < runs; i++) {
        long t0 = System.nanoTime();
        long c0 = os.getProcessCpuTime();
        n = runOnce(cfg, mode, new Sinks());
        rps[i] = n / ((System.nanoTime() - t0) / 1e9);
        cpu[i] = n / ((os.getProcessCpuTime() - c0) / 1e9);
      }
      out.add(new Result(mode, nodes * 8, simulatedS, rps, cpu, n));
    }
    return out;
  }

  /** Per-mode consumers; their byte counters keep the JIT from dropping the work. */
  static final class Sinks {
    long bytes;
    final ByteArrayOutputStream buf = new ByteArrayOutputStream(4096);
    BinaryEncoder enc;
    final Map<Schema, SpecificDatumWriter<SpecificRecord>> writers = new HashMap<>();
  }

  static long runOnce(SimConfig cfg, String mode, Sinks s) throws Exception {
    long n = 0;
    for (SimRecord r : new FleetSimulator(cfg)) {
      switch (mode) {
        case "sim" -> s.bytes += r.key().length();
        case "json" -> s.bytes += JsonLines.toJson(r.toLine()).length();
        case "avro" -> {
          s.buf.reset();
          s.buf.write(0);
          s.buf.write(new byte[] {0, 0, 0, 1});
          s.enc = EncoderFactory.get().binaryEncoder(s.buf, s.enc);
          s.writers.computeIfAbsent(r.value().getSchema(), SpecificDatumWriter::new).write(r.value(), s.enc);
          s.enc.flush();
          s.bytes += s.buf.size();
        }
        default -> throw new IllegalArgumentException("unknown mode " + mode + " (sim, json, avro)");
      }
      n++;
    }
    return n;
  }

  public static String markdown(List<Result> results, int runs) {
    StringBuilder b = new StringBuilder();
    String baseMode = results.isEmpty() ? "" : results.get(0).mode();
    double base = results.isEmpty() ? Double.NaN : results.get(0).medianCpu();
    b.append("| output | GPUs | simulated s | records/run | records per CPU-s (runs) | median per CPU-s | vs ")
        .append(baseMode).append(" | x real time at 1 Hz per core | records per wall-s (runs) | median per wall-s |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (Result r : results) {
      double perSimS = r.records() / (double) r.simulatedS();
      b.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s | %.0f | %.2f | %.1f | %s | %.0f |%n", r.mode(),
          r.gpus(), r.simulatedS(), r.records(), join(r.recordsPerCpuS()), r.medianCpu(), r.medianCpu() / base,
          r.medianCpu() / perSimS, join(r.recordsPerS()), r.median()));
    }
    return b.toString();
  }

  private static String join(double[] v) {
    StringBuilder b = new StringBuilder();
    for (double x : v) {
      b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", x));
    }
    return b.toString();
  }
}
