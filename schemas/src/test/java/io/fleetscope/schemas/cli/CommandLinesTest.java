package io.fleetscope.schemas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

class CommandLinesTest {

  /** A command with every shared option, as an entry point declares them. */
  @Command(name = "probe", description = "a command with the shared options")
  static final class Probe implements Callable<Integer> {
    @Mixin HelpOption help;
    @Mixin KafkaOption kafka;
    @Mixin RegistryOption registry;
    @Mixin JdbcOptions jdbc;

    @Option(names = "--timeout", description = "how long")
    Duration timeout = Duration.ofSeconds(5);

    @Option(names = "--fail", description = "throw this kind of exception: usage, io or wrapped")
    String fail;

    @Override
    public Integer call() throws Exception {
      if ("usage".equals(fail)) {
        throw new IllegalArgumentException("--fail usage makes no sense here");
      }
      if ("io".equals(fail)) {
        throw new java.io.IOException("disk \"full\"");
      }
      if ("wrapped".equals(fail)) {
        throw new RuntimeException("Failed to fetch next result",
            new IllegalStateException("job failed", new OutOfMemoryError("Java heap space")));
      }
      return 0;
    }
  }

  private record Run(int code, String out, String err) {}

  private static Run run(Probe p, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = CommandLines.execute(p, args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void endpointsDefaultToTheLocalStackThenTheEnvironmentThenTheFlag() {
    Probe p = new Probe();
    assertThat(run(p).code()).isZero();
    assertThat(p.kafka.bootstrap(Map.of())).isEqualTo("127.0.0.1:19092");
    assertThat(p.kafka.given()).isEmpty();
    assertThat(p.registry.url(Map.of())).isEqualTo("http://127.0.0.1:18081");
    assertThat(p.jdbc.url(Map.of())).isEqualTo("jdbc:postgresql://127.0.0.1:15432/fleetscope");
    assertThat(p.jdbc.user(Map.of())).isEqualTo("fleetscope_console");
    assertThat(p.jdbc.user(Map.of(), "fleetscope_sink")).isEqualTo("fleetscope_sink");
    assertThat(p.jdbc.password(Map.of())).isEmpty();
    Map<String, String> env = Map.of("FLEETSCOPE_KAFKA", "env:1", "FLEETSCOPE_REGISTRY", "http://env:2",
        "FLEETSCOPE_JDBC_URL", "jdbc:postgresql://env/db", "FLEETSCOPE_JDBC_USER", "u", "FLEETSCOPE_JDBC_PASSWORD", "pw");
    assertThat(p.kafka.bootstrap(env)).isEqualTo("env:1");
    assertThat(p.registry.url(env)).isEqualTo("http://env:2");
    assertThat(p.jdbc.url(env)).isEqualTo("jdbc:postgresql://env/db");
    assertThat(p.jdbc.user(env)).isEqualTo("u");
    assertThat(p.jdbc.password(env)).isEqualTo("pw");

    Probe flags = new Probe();
    assertThat(run(flags, "--kafka", "flag:3", "--registry=http://flag:4", "--jdbc", "jdbc:postgresql://flag/db",
        "--jdbc-user", "v").code()).isZero();
    assertThat(flags.kafka.bootstrap(env)).isEqualTo("flag:3");
    assertThat(flags.kafka.given()).contains("flag:3");
    assertThat(flags.registry.url(env)).isEqualTo("http://flag:4");
    assertThat(flags.jdbc.url(env)).isEqualTo("jdbc:postgresql://flag/db");
    assertThat(flags.jdbc.user(env)).isEqualTo("v");
    assertThat(flags.jdbc.password(env)).isEqualTo("pw");
  }

  @Test
  void anEndpointFlagWithoutAValueMeansTheDefault() {
    Probe p = new Probe();
    assertThat(run(p, "--kafka", "--timeout", "1s").code()).isZero();
    assertThat(p.kafka.given()).isEmpty();
    assertThat(p.kafka.bootstrap(Map.of())).isEqualTo("127.0.0.1:19092");
    assertThat(p.timeout).isEqualTo(Duration.ofSeconds(1));
    Probe last = new Probe();
    assertThat(run(last, "--registry").code()).isZero();
    assertThat(last.registry.url(Map.of())).isEqualTo("http://127.0.0.1:18081");
  }

  @Test
  void durationsUseTheOneSyntax() {
    Probe p = new Probe();
    assertThat(run(p, "--timeout", "1m30s").code()).isZero();
    assertThat(p.timeout).isEqualTo(Duration.ofSeconds(90));
    Run bad = run(new Probe(), "--timeout", "5000");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("probe: Invalid value for option '--timeout': '5000' is not a duration")
        .contains("e.g. 500ms, 5s, 10m, 1h or 1m30s").contains("Usage: probe");
  }

  @Test
  void mistakesExitWithTwoAndOneLineSayingWhat() {
    Run unknown = run(new Probe(), "--kafak", "h:1");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).startsWith("probe: Unknown options: '--kafak', 'h:1'").contains("--kafka")
        .contains("Try 'probe --help' for more.");
    Run usage = run(new Probe(), "--fail", "usage");
    assertThat(usage.code()).isEqualTo(2);
    assertThat(usage.err()).isEqualTo("probe: --fail usage makes no sense here" + System.lineSeparator());
    Run io = run(new Probe(), "--fail", "io");
    assertThat(io.code()).isEqualTo(1);
    assertThat(io.err()).isEqualTo("probe: error=IOException message=\"disk 'full'\"" + System.lineSeparator());
    Run wrapped = run(new Probe(), "--fail", "wrapped");
    assertThat(wrapped.code()).isEqualTo(1);
    assertThat(wrapped.err()).isEqualTo("probe: error=RuntimeException message=\"Failed to fetch next result\""
        + " cause=OutOfMemoryError cause_message=\"Java heap space\"" + System.lineSeparator());
  }

  @Test
  void helpIsGeneratedWithTheDefaultsOfEveryOption() {
    Run help = run(new Probe(), "--help");
    assertThat(help.code()).isZero();
    assertThat(help.out()).contains("Usage: probe", "a command with the shared options",
        "--kafka[=HOST:PORT]", "$FLEETSCOPE_KAFKA", "127.0.0.1:19092",
        "--kafka-config=FILE", "$FLEETSCOPE_KAFKA_CONFIG", "--registry[=URL]", "--jdbc[=URL]", "--jdbc-user=USER", "--jdbc-password-file=FILE", "-h, --help");
    assertThat(help.out()).doesNotContain("--jdbc-password=");
  }

  @Test
  void kafkaConfigComesFromTheFlagElseTheEnvironment(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    java.nio.file.Path f = tmp.resolve("client.properties");
    java.nio.file.Files.writeString(f, "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n");
    Probe p = new Probe();
    assertThat(run(p, "--kafka-config", f.toString(), "--timeout", "1s").code()).isZero();
    assertThat(p.kafka.givenConfigFile()).contains(f.toString());
    assertThat(p.kafka.client(Map.of()).kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
    Probe none = new Probe();
    assertThat(run(none, "--timeout", "1s").code()).isZero();
    assertThat(none.kafka.client(Map.of()).isEmpty()).isTrue();
    assertThat(none.kafka.client(Map.of("FLEETSCOPE_KAFKA_CONFIG", f.toString())).kafkaProperties())
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512");
  }
}
