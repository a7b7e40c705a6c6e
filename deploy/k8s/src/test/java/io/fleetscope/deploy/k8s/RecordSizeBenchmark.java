package io.fleetscope.deploy.k8s;

import io.fleetscope.loadgen.scenario.ScenarioLoader;
import io.fleetscope.loadgen.sim.FleetSimulator;
import io.fleetscope.loadgen.sim.SimConfig;
import io.fleetscope.loadgen.sim.SimRecord;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.TimestampType;

/**
 * Bytes per record on the wire and in Kafka's log, for docs/sizing.md: the simulated healthy fleet
 * (loadgen's FleetSimulator), each record in the Confluent wire format (5-byte header + Avro), and
 * batched as a node agent's producer batches them (one batch per topic and key per 1 s round: a
 * node's records of a topic share a key and so a partition), written with Kafka's own
 * {@link MemoryRecordsBuilder} (record format v2) without compression and with zstd (the agent's
 * {@code kafka.compression}). A broker stores a producer's batches as they come
 * ({@code compression.type=producer}), so the batch bytes are the log's bytes too.
 *
 * <pre>
 * java -cp deploy/k8s/target/test-classes:CLASSPATH io.fleetscope.deploy.k8s.RecordSizeBenchmark [GPUS] [SECONDS]
 * </pre>
 */
public final class RecordSizeBenchmark {
  private RecordSizeBenchmark() {}

  /** Totals of one topic. */
  static final class Totals {
    long records;
    long avroBytes;
    long batches;
    long batchBytesNone;
    long batchBytesZstd;
  }

  public static void main(String[] args) throws Exception {
    int gpus = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    SimConfig cfg = SimConfig.of((gpus + 7) / 8, ScenarioLoader.load("healthy"), 1).withDuration(Duration.ofSeconds(seconds));
    Map<String, Totals> totals = new TreeMap<>();
    Map<String, List<byte[][]>> round = new LinkedHashMap<>();
    Map<Schema, SpecificDatumWriter<SpecificRecord>> writers = new HashMap<>();
    ByteArrayOutputStream buf = new ByteArrayOutputStream(512);
    BinaryEncoder enc = null;
    long roundSecond = Long.MIN_VALUE;
    for (SimRecord r : new FleetSimulator(cfg)) {
      long second = tsOf(r.value()) / 1000;
      if (second != roundSecond) {
        flush(round, totals);
        roundSecond = second;
      }
      buf.reset();
      buf.write(0);
      buf.write(new byte[] {0, 0, 0, 1});
      enc = EncoderFactory.get().binaryEncoder(buf, enc);
      writers.computeIfAbsent(r.value().getSchema(), SpecificDatumWriter::new).write(r.value(), enc);
      enc.flush();
      byte[] value = buf.toByteArray();
      byte[] key = r.key() == null ? null : r.key().getBytes(StandardCharsets.UTF_8);
      totals.computeIfAbsent(r.topic(), t -> new Totals()).avroBytes += value.length;
      round.computeIfAbsent(r.topic() + "\u0000" + r.key(), k -> new ArrayList<>()).add(new byte[][] {key, value});
    }
    flush(round, totals);
    print(gpus, seconds, totals);
  }

  private static long tsOf(SpecificRecord v) {
    Schema.Field f = v.getSchema().getField("ts");
    if (f == null) {
      f = v.getSchema().getField("started_ts");
    }
    return f == null ? 0 : ((Number) v.get(f.pos())).longValue();
  }

  private static void flush(Map<String, List<byte[][]>> round, Map<String, Totals> totals) {
    for (Map.Entry<String, List<byte[][]>> e : round.entrySet()) {
      Totals t = totals.get(e.getKey().substring(0, e.getKey().indexOf('\u0000')));
      t.records += e.getValue().size();
      t.batches++;
      t.batchBytesNone += batchBytes(e.getValue(), Compression.NONE);
      t.batchBytesZstd += batchBytes(e.getValue(), Compression.zstd().build());
    }
    round.clear();
  }

  private static int batchBytes(List<byte[][]> records, Compression compression) {
    MemoryRecordsBuilder b = MemoryRecords.builder(ByteBuffer.allocate(64 * 1024), compression, TimestampType.CREATE_TIME, 0L);
    long ts = 1_700_000_000_000L;
    for (byte[][] kv : records) {
      b.append(ts, kv[0], kv[1]);
    }
    return b.build().sizeInBytes();
  }

  private static void print(int gpus, int seconds, Map<String, Totals> totals) {
    System.out.printf(Locale.ROOT, "record sizes: %d GPUs, %d simulated seconds, healthy scenario, seed 1%n%n", gpus, seconds);
    System.out.println("| topic | records | Avro + header, bytes/record | records/batch | Kafka batch, none, bytes/record | Kafka batch, zstd, bytes/record |");
    System.out.println("|---|---|---|---|---|---|");
    Totals all = new Totals();
    for (Map.Entry<String, Totals> e : totals.entrySet()) {
      row(e.getKey(), e.getValue());
      Totals t = e.getValue();
      all.records += t.records;
      all.avroBytes += t.avroBytes;
      all.batches += t.batches;
      all.batchBytesNone += t.batchBytesNone;
      all.batchBytesZstd += t.batchBytesZstd;
    }
    row("**all**", all);
  }

  private static void row(String name, Totals t) {
    System.out.printf(Locale.ROOT, "| %s | %,d | %.1f | %.1f | %.1f | %.1f |%n", name, t.records, t.avroBytes / (double) t.records,
        t.records / (double) t.batches, t.batchBytesNone / (double) t.records, t.batchBytesZstd / (double) t.records);
  }
}
