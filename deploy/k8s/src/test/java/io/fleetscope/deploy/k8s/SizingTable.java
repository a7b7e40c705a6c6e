package io.fleetscope.deploy.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * docs/sizing.md: its inputs (measurements from BENCHMARKS.md and planning choices) and its table
 * (one column per fleet size), and {@link #compute} that derives the table from the inputs.
 */
record SizingTable(Map<String, Double> inputs, List<Integer> gpus, Map<String, List<String>> rows) {
  /** The overlays and the column each takes its numbers from. */
  static final Map<String, Integer> OVERLAY_GPUS = Map.of("overlays/small", 1_000, "overlays/large", 100_000);

  static Path file() {
    return Manifests.repoRoot().resolve("docs/sizing.md");
  }

  static SizingTable read() throws IOException {
    Map<String, Double> inputs = new LinkedHashMap<>();
    Map<String, List<String>> rows = new LinkedHashMap<>();
    String section = "";
    for (String line : Files.readAllLines(file())) {
      if (line.startsWith("## ")) {
        section = line.substring(3).trim();
        continue;
      }
      if (!line.startsWith("| `")) {
        continue;
      }
      List<String> cells = List.of(line.substring(1, line.length() - 1).split("\\|")).stream().map(String::trim).toList();
      String key = cells.get(0).replace("`", "");
      if (section.equals("Inputs")) {
        inputs.put(key, number(cells.get(1)));
      } else if (section.equals("Table")) {
        rows.put(key, cells.subList(2, 5));
      }
    }
    return new SizingTable(inputs, List.of(1_000, 20_000, 100_000), rows);
  }

  static double number(String cell) {
    return Double.parseDouble(cell.replace(",", ""));
  }

  double in(String key) {
    Double v = inputs.get(key);
    if (v == null) {
      throw new IllegalArgumentException("docs/sizing.md has no input `" + key + "`");
    }
    return v;
  }

  /** One column of the table as written. */
  Column forOverlay(String overlay) {
    return column(OVERLAY_GPUS.get(overlay));
  }

  Column column(int n) {
    int i = gpus.indexOf(n);
    Map<String, String> out = new LinkedHashMap<>();
    rows.forEach((k, v) -> out.put(k, v.get(i)));
    return new Column(out);
  }

  /** A column: quantity -> value as printed. */
  record Column(Map<String, String> values) {
    int integer(String key) {
      String v = values.get(key);
      if (v == null) {
        throw new IllegalArgumentException("docs/sizing.md has no row `" + key + "`");
      }
      return (int) number(v);
    }
  }

  /** The table's column for {@code n} GPUs, computed from the inputs and printed as the page prints it. */
  Column compute(int n) {
    double target = in("target_utilisation");
    double perRecordPostgres = in("postgres_cores_at_pipeline") / in("pipeline_records_per_s");
    double perRecordKafka = in("kafka_cores_at_pipeline") / in("pipeline_records_per_s");
    double records = n * in("pipeline_records_per_s") / in("pipeline_gpus");
    double analytics = records * in("analytics_us_per_record") * 1e-6;
    int slotsPerTm = (int) in("slots_per_taskmanager");
    int taskManagers = ceil(Math.max(in("min_parallelism"), analytics / target) / slotsPerTm);
    int parallelism = taskManagers * slotsPerTm;
    int partitions = Math.max((int) in("min_partitions"), Integer.highestOneBit(parallelism - 1) << 1);
    double sink = records * in("sink_us_per_record") * 1e-6;
    int workers = (int) in("workers_per_sink_replica");
    int sinkReplicas = Math.max((int) in("min_sink_replicas"), ceil(sink / target / workers));
    double postgres = records * perRecordPostgres;
    double rf = in("replication_factor");
    double kafka = records * perRecordKafka * rf;
    double gbPerDay = records * 86_400 * in("record_bytes") * rf / 1e9;
    double retentionGb = gbPerDay * in("retention_days");
    int brokers = Math.max(Math.max((int) in("min_brokers"), ceil(kafka / (in("broker_cores") * target))),
        ceil(retentionGb * in("disk_headroom") / in("broker_disk_gb")));
    Map<String, String> c = new LinkedHashMap<>();
    c.put("records_per_s", whole(Math.round(records)));
    c.put("analytics_cores", two(analytics));
    c.put("flink_parallelism", whole(parallelism));
    c.put("flink_taskmanagers", whole(taskManagers));
    c.put("raw_partitions", whole(partitions));
    c.put("sink_cores", two(sink));
    c.put("sink_replicas", whole(sinkReplicas));
    c.put("sink_consumers", whole((long) sinkReplicas * workers));
    c.put("postgres_busy_cores", two(postgres));
    c.put("postgres_cores", whole(ceil(postgres / target)));
    c.put("kafka_cores", two(kafka));
    c.put("kafka_brokers", whole(brokers));
    c.put("kafka_gb_per_day_uncompressed", whole(Math.round(records * 86_400 * in("record_bytes_uncompressed") * rf / 1e9)));
    c.put("kafka_gb_per_day", whole(Math.round(gbPerDay)));
    c.put("kafka_retention_gb", whole(Math.round(retentionGb)));
    c.put("broker_disk_gb_each", whole(ceil(retentionGb * in("disk_headroom") / brokers)));
    c.put("postgres_million_rows_per_day", one(records * 86_400 / 1e6));
    c.put("postgres_gpu_gb_per_day_uncompressed", one((double) n * 86_400 * in("gpu_row_bytes_uncompressed") / 1e9));
    c.put("postgres_gpu_gb_per_day", one((double) n * 86_400 * in("gpu_row_bytes_compressed") / 1e9));
    c.put("broker_in_mb_s", one(records * in("record_bytes") * rf / brokers / 1e6));
    c.put("broker_out_mb_s", one(records * in("record_bytes") * (rf - 1 + in("raw_readers")) / brokers / 1e6));
    c.put("agent_node_kb_s", one(in("agent_records_per_s") * in("record_bytes") / 1e3));
    return new Column(c);
  }

  private static int ceil(double v) {
    return (int) Math.ceil(v - 1e-9);
  }

  private static String whole(long v) {
    return String.format(Locale.ROOT, "%,d", v);
  }

  private static String one(double v) {
    return String.format(Locale.ROOT, "%,.1f", v);
  }

  private static String two(double v) {
    return String.format(Locale.ROOT, "%,.2f", v);
  }
}
