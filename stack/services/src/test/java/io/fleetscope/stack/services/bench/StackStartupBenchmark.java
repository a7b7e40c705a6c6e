package io.fleetscope.stack.services.bench;

import io.fleetscope.stack.services.ChildProcesses;
import io.fleetscope.stack.services.LocalKafka;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.SchemaRegistryServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Start-up cost and footprint of the local services, and registry request latency. Not a test:
 * run by hand (see BENCHMARKS.md at the repository root for the command). Each round uses fresh directories;
 * prints every round and the median per metric.
 */
public final class StackStartupBenchmark {
  private StackStartupBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    boolean registryOnly = args.length > 1 && args[1].equals("registry");
    Map<String, List<Double>> m = new LinkedHashMap<>();
    if (registryOnly) {
      Path dir = Files.createTempDirectory("fleetscope-bench-");
      try (LocalKafka kafka = LocalKafka.start(LocalKafka.Config.defaults(dir.resolve("kafka")))) {
        for (int r = 1; r <= rounds; r++) {
          try (SchemaRegistryServer reg = SchemaRegistryServer.start(kafka.bootstrapServers(), 0, "_schemas_bench_" + r)) {
            registry(reg, m);
          }
        }
      } finally {
        try (var s = Files.walk(dir)) {
          s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
      m.forEach((k, v) -> System.out.println(k + " median=" + fmt(median(v)) + " all=" + v.stream().map(StackStartupBenchmark::fmt).toList()));
      return;
    }
    for (int r = 1; r <= rounds; r++) {
      Path dir = Files.createTempDirectory("fleetscope-bench-");
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
      try {
        round(dir, m);
      } finally {
        try (var s = Files.walk(dir)) {
          s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
      System.out.println("round=" + r + " " + m.entrySet().stream()
          .map(e -> e.getKey() + "=" + fmt(e.getValue().get(e.getValue().size() - 1))).reduce((a, b) -> a + " " + b).orElse(""));
    }
    System.out.println("--- medians over " + rounds + " rounds");
    m.forEach((k, v) -> System.out.println(k + " median=" + fmt(median(v)) + " all=" + v.stream().map(StackStartupBenchmark::fmt).toList()));
  }

  private static void round(Path dir, Map<String, List<Double>> m) throws Exception {
    long t0 = System.nanoTime();
    LocalKafka kafka = LocalKafka.start(LocalKafka.Config.defaults(dir.resolve("kafka")));
    add(m, "kafka_cold_start_ms", ms(t0));
    add(m, "kafka_rss_mib_after_start", ChildProcesses.rssKiB(kafka.pid()) / 1024.0);
    t0 = System.nanoTime();
    kafka.stop();
    add(m, "kafka_stop_ms", ms(t0));
    t0 = System.nanoTime();
    kafka = LocalKafka.start(kafka.config());
    add(m, "kafka_warm_start_ms", ms(t0));
    try {
      t0 = System.nanoTime();
      SchemaRegistryServer reg = SchemaRegistryServer.start(kafka.bootstrapServers(), 0);
      add(m, "registry_start_ms", ms(t0));
      try {
        registry(reg, m);
      } finally {
        reg.stop();
      }
      add(m, "kafka_rss_mib_after_registry_load", ChildProcesses.rssKiB(kafka.pid()) / 1024.0);
    } finally {
      kafka.stop();
    }

    t0 = System.nanoTime();
    LocalPostgres pg = LocalPostgres.start(LocalPostgres.Config.forTests(dir.resolve("pg")));
    add(m, "postgres_initdb_and_start_ms", ms(t0));
    t0 = System.nanoTime();
    pg.restart();
    add(m, "postgres_restart_ms", ms(t0));
    t0 = System.nanoTime();
    pg.createDatabase("bench_db");
    add(m, "postgres_create_database_with_timescaledb_ms", ms(t0));
    pg.stop();
  }

  private static void registry(SchemaRegistryServer reg, Map<String, List<Double>> m) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    int n = 100;
    double[] reg1 = new double[n];
    for (int i = 0; i < n; i++) {
      String schema = "{\"type\":\"record\",\"name\":\"R" + i + "\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"}]}";
      long t = System.nanoTime();
      HttpResponse<String> r = post(http, reg.url() + "/subjects/bench-" + i + "-value/versions", schema);
      reg1[i] = (System.nanoTime() - t) / 1e6;
      if (r.statusCode() != 200) {
        throw new IllegalStateException(r.body());
      }
    }
    add(m, "registry_register_new_p50_ms", percentile(reg1, 50));
    add(m, "registry_register_new_p99_ms", percentile(reg1, 99));
    int k = 2000;
    double[] get = new double[k];
    for (int i = 0; i < k; i++) {
      long t = System.nanoTime();
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(reg.url() + "/schemas/ids/" + (1 + i % n))).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      get[i] = (System.nanoTime() - t) / 1e6;
      if (r.statusCode() != 200) {
        throw new IllegalStateException(r.body());
      }
    }
    add(m, "registry_get_by_id_p50_ms", percentile(get, 50));
    add(m, "registry_get_by_id_p99_ms", percentile(get, 99));
    double[] again = new double[n];
    for (int i = 0; i < n; i++) {
      String schema = "{\"type\":\"record\",\"name\":\"R" + i + "\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"}]}";
      long t = System.nanoTime();
      post(http, reg.url() + "/subjects/bench-" + i + "-value/versions", schema);
      again[i] = (System.nanoTime() - t) / 1e6;
    }
    add(m, "registry_register_existing_p50_ms", percentile(again, 50));
  }

  private static HttpResponse<String> post(HttpClient http, String url, String schema) throws Exception {
    String body = "{\"schema\":" + new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(schema) + "}";
    return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/vnd.schemaregistry.v1+json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void add(Map<String, List<Double>> m, String k, double v) {
    m.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
  }

  private static double ms(long t0) {
    return (System.nanoTime() - t0) / 1e6;
  }

  private static double percentile(double[] v, int p) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
  }

  private static double median(List<Double> v) {
    double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String fmt(double d) {
    return String.format(java.util.Locale.ROOT, "%.1f", d);
  }
}
