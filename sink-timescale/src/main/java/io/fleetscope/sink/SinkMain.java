package io.fleetscope.sink;

import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.JdbcOptions;
import io.fleetscope.schemas.cli.JdbcOwnerOptions;
import io.fleetscope.schemas.cli.KafkaOption;
import io.fleetscope.schemas.cli.RegistryOption;
import io.fleetscope.sink.service.SinkService;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The sink service: {@code sink [--config FILE] [--kafka HOST:PORT] [--registry URL] [--jdbc URL]
 * [--jdbc-user U] [--jdbc-password-file F] [--jdbc-owner U] [--jdbc-owner-password-file F]
 * [--set key=value ...]} runs until SIGTERM/SIGINT. Settings: see {@link SinkConfig}; flags override
 * the file. It writes as {@code jdbc.user} (default fleetscope_sink) and applies the migrations as
 * {@code jdbc.owner_user} (default fleetscope); passwords come from files or the environment
 * ({@link io.fleetscope.schemas.cli.DbPassword}).
 */
@Command(name = "sink", sortOptions = false,
    description = "Stores every topic in TimescaleDB until stopped. Flags override the settings file.")
public final class SinkMain implements Callable<Integer> {
  @Mixin HelpOption help;

  @Option(names = "--config", paramLabel = "FILE", description = "settings file (YAML: section, then key, e.g. sink: {workers: 4}; keys below)")
  Path config;

  @Mixin KafkaOption kafka;
  @Mixin RegistryOption registry;
  @Mixin JdbcOptions jdbc;
  @Mixin JdbcOwnerOptions owner;

  @Option(names = "--migrate-only", description = "apply the migrations as the owner, then exit (a deployment's migrations job)")
  boolean migrateOnly;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "any setting below, by its full name, e.g. sink.workers=4")
  List<String> set = new ArrayList<>();

  public static void main(String[] args) {
    int rc = commandLine(new SinkMain()).execute(args);
    if (rc != 0) {
      System.exit(rc);
    }
  }

  /** The command line of {@code sink}, with every setting, its default and its meaning in the help. */
  static CommandLine commandLine(SinkMain command) {
    CommandLine cl = CommandLines.create(command);
    cl.getCommandSpec().usageMessage().footer(settingsHelp());
    return cl;
  }

  @Override
  public Integer call() throws Exception {
    SinkService service = new SinkService(config());
    if (migrateOnly) {
      service.migrate();
      return 0;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.close();
      stopped.countDown();
    }, "sink-shutdown"));
    service.start();
    stopped.await();
    return 0;
  }

  /** The configuration: defaults, then the file, then the flags. */
  SinkConfig config() throws IOException {
    return config(System.getenv());
  }

  /** The configuration with {@code env} supplying the passwords' defaults. */
  SinkConfig config(Map<String, String> env) throws IOException {
    Map<String, String> all = new LinkedHashMap<>();
    if (config != null) {
      all.putAll(SinkConfig.readFile(config));
    }
    kafka.given().ifPresent(v -> all.put(SinkConfig.KAFKA.name(), v));
    kafka.givenConfigFile().ifPresent(v -> all.put(SinkConfig.KAFKA_CONFIG.name(), v));
    registry.given().ifPresent(v -> all.put(SinkConfig.REGISTRY.name(), v));
    jdbc.givenUrl().ifPresent(v -> all.put(SinkConfig.JDBC_URL.name(), v));
    jdbc.givenUser().ifPresent(v -> all.put(SinkConfig.JDBC_USER.name(), v));
    String user = all.getOrDefault(SinkConfig.JDBC_USER.name(), SinkConfig.JDBC_USER.defaultValue());
    if (jdbc.passwordFileGiven() || !all.containsKey(SinkConfig.JDBC_PASSWORD.name())) {
      String pw = jdbc.password(env, user);
      if (!pw.isEmpty()) {
        all.put(SinkConfig.JDBC_PASSWORD.name(), pw);
      }
    }
    owner.givenUser().ifPresent(v -> all.put(SinkConfig.OWNER_USER.name(), v));
    String ownerUser = all.getOrDefault(SinkConfig.OWNER_USER.name(), owner.user(env));
    all.putIfAbsent(SinkConfig.OWNER_USER.name(), ownerUser);
    if (!ownerUser.isEmpty() && (owner.passwordFileGiven() || !all.containsKey(SinkConfig.OWNER_PASSWORD.name()))) {
      String pw = owner.password(env, ownerUser);
      if (!pw.isEmpty()) {
        all.put(SinkConfig.OWNER_PASSWORD.name(), pw);
      }
    }
    for (String kv : set) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--set needs key=value, got '" + kv + "'");
      }
      all.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    return SinkConfig.of(all);
  }

  /** Parses a command line into a configuration (defaults, the file, then flags). */
  public static SinkConfig parse(String[] args) throws IOException {
    return parse(args, System.getenv());
  }

  /** Parses a command line into a configuration, with {@code env} as the environment. */
  public static SinkConfig parse(String[] args, Map<String, String> env) throws IOException {
    SinkMain m = new SinkMain();
    try {
      commandLine(m).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return m.config(env);
  }

  static String settingsHelp() {
    StringBuilder sb = new StringBuilder("%nSettings (default):%n");
    for (io.fleetscope.schemas.config.Settings.Key k : SinkConfig.KEYS) {
      sb.append("  ").append(k.name()).append(" (").append(k.type().label()).append(", ")
          .append(k.defaultValue().isEmpty() ? "none" : k.defaultValue())
          .append("): ").append(k.doc().replace("%", "%%")).append("%n");
    }
    return sb.toString();
  }
}
