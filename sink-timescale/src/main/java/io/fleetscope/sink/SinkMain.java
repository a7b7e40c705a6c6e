package io.fleetscope.sink;

import io.fleetscope.sink.service.SinkService;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code sink [--config FILE] [--kafka HOST:PORT] [--registry URL] [--jdbc URL] [--jdbc-user U]
 * [--set key=value ...]}: runs the sink until SIGTERM/SIGINT. Settings: see {@link SinkConfig}
 * (flags override the file).
 */
public final class SinkMain {
  private SinkMain() {}

  public static void main(String[] args) throws Exception {
    SinkConfig config;
    try {
      config = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("sink: " + e.getMessage());
      System.err.println(usage());
      System.exit(2);
      return;
    }
    SinkService service = new SinkService(config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.close();
      stopped.countDown();
    }, "sink-shutdown"));
    service.start();
    stopped.await();
  }

  static String usage() {
    StringBuilder sb = new StringBuilder("usage: sink [--config FILE] [--kafka HOST:PORT] [--registry URL] [--jdbc URL] "
        + "[--jdbc-user USER] [--set key=value ...]\nsettings (default):\n");
    for (SinkConfig.Key k : SinkConfig.KEYS) {
      sb.append("  ").append(k.name()).append(" (").append(k.defaultValue().isEmpty() ? "none" : k.defaultValue())
          .append("): ").append(k.doc()).append('\n');
    }
    return sb.toString();
  }

  /** Parses the command line into a configuration (file first, then flags). */
  public static SinkConfig parse(String[] args) throws java.io.IOException {
    Map<String, String> file = new LinkedHashMap<>();
    Map<String, String> flags = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("-h") || a.equals("--help")) {
        System.out.println(usage());
        System.exit(0);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value after " + a);
      }
      String v = args[++i];
      switch (a) {
        case "--config" -> file.putAll(SinkConfig.readFile(Path.of(v)));
        case "--kafka" -> flags.put(SinkConfig.KAFKA.name(), v);
        case "--registry" -> flags.put(SinkConfig.REGISTRY.name(), v);
        case "--jdbc" -> flags.put(SinkConfig.JDBC_URL.name(), v);
        case "--jdbc-user" -> flags.put(SinkConfig.JDBC_USER.name(), v);
        case "--set" -> {
          int eq = v.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--set needs key=value, got '" + v + "'");
          }
          flags.put(v.substring(0, eq), v.substring(eq + 1));
        }
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    Map<String, String> all = new LinkedHashMap<>(file);
    all.putAll(flags);
    return SinkConfig.of(all);
  }
}
