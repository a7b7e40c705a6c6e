package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The {@code fleetscope} command line: commands, generated help, flag names and mistakes; nothing is started. */
class CommandLineTest {
  private record Out(int code, String out, String err) {}

  private static Out run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
    return new Out(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  @Test
  void everyCommandIsThereAndTheHelpListsThem() {
    CommandLine cl = Main.commandLine(System.out, System.err, Map.of());
    assertThat(cl.getSubcommands().keySet()).containsExactly("demo", "up", "down", "status", "run", "agent", "loadgen",
        "tail", "publish", "analyze", "query", "export", "incident", "replay", "backtest", "bench", "help");
    for (Out help : List.of(run(), run("help"), run("--help"))) {
      assertThat(help.code()).isZero();
      assertThat(help.out()).contains("Usage: fleetscope", "demo", "loadgen", "replay", "FLEETSCOPE_KAFKA",
          "500ms, 5s, 10m, 1h");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"up", "down", "status", "demo", "run", "agent", "loadgen", "tail", "publish", "analyze", "query",
      "export", "incident", "replay", "backtest", "bench"})
  void everyCommandHasAGeneratedHelp(String command) {
    Out help = run(command, "--help");
    assertThat(help.code()).as(help.err()).isZero();
    assertThat(help.out()).startsWith("Usage: fleetscope " + command).contains("-h, --help");
    assertThat(run("help", command).out()).isEqualTo(help.out());
  }

  @Test
  void bundleCommandsRefuseABadBundleNamingTheFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    Out backtest = run("backtest", dir.toString());
    assertThat(backtest.code()).isEqualTo(1);
    assertThat(backtest.err()).contains("bad bundle file manifest.json: missing in " + dir);
    java.nio.file.Files.writeString(dir.resolve("manifest.json"), "{\"format\":\"fleetscope-export-v1\"}");
    Out analyze = run("analyze", "--in", dir.toString(), "--out", dir.resolve("out.jsonl").toString());
    assertThat(analyze.code()).isEqualTo(1);
    assertThat(analyze.err()).contains("bad bundle file manifest.json: format is 'fleetscope-export-v1', expected 'fleetscope-bundle-v1'");
    assertThat(run("replay", dir.toString(), "--prefix", "bad/name").err()).contains("--prefix may hold letters");
    assertThat(run("incident", "export", "--help").out()).contains("--margin=DURATION", "--jdbc[=URL]", "--analytics-config");
  }

  @Test
  void theSameThingHasTheSameFlagEverywhere() {
    for (String command : List.of("run", "loadgen", "tail", "publish", "replay")) {
      assertThat(run(command, "--help").out()).as(command).contains("--kafka[=HOST:PORT]", "--registry[=URL]");
    }
    assertThat(run("bench", "pipeline", "--help").out()).contains("--kafka[=HOST:PORT]", "--registry[=URL]");
    for (String command : List.of("run", "query", "export")) {
      assertThat(run(command, "--help").out()).as(command).contains("--jdbc[=URL]");
    }
    for (String command : List.of("query", "export")) {
      assertThat(run(command, "--help").out()).as(command).contains("--jdbc-user=USER", "--jdbc-password-file=FILE");
    }
  }

  @Test
  void mistakesExitWithTwoNamingThem() {
    Out unknown = run("frobnicate");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("'frobnicate'").contains("Commands: demo, up, down, status, run");
    Out flag = run("tail", "fleet.gpu.v1", "--idle-timeout", "5000");
    assertThat(flag.code()).isEqualTo(2);
    assertThat(flag.err()).startsWith("fleetscope tail: Invalid value for option '--idle-timeout': '5000' is not a duration")
        .contains("Usage: fleetscope tail");
    Out demo = run("demo", "--minutes", "1");
    assertThat(demo.code()).isEqualTo(2);
    assertThat(demo.err()).isEqualTo("fleetscope demo: --minutes must be at least 2 (the incident starts 75 s in)"
        + System.lineSeparator());
    Out engine = run("run", "--engine", "yarn");
    assertThat(engine.code()).isEqualTo(2);
    assertThat(engine.err()).contains("--engine", "cluster, minicluster");
    Out detect = run("bench", "detct");
    assertThat(detect.code()).isEqualTo(2);
    assertThat(detect.err()).contains("fleetscope bench: Unmatched argument", "detect");
    Out chaosMinutes = run("bench", "chaos", "--minutes", "1");
    assertThat(chaosMinutes.code()).isEqualTo(2);
    assertThat(chaosMinutes.err()).startsWith("fleetscope bench chaos: --minutes must be at least 2");
    Out chaosFault = run("bench", "chaos", "--faults", "broker,dns");
    assertThat(chaosFault.code()).isEqualTo(2);
    assertThat(chaosFault.err()).contains("unknown fault 'dns'", "known: [broker, taskmanager, correlator, sink, postgres,"
        + " registry, alertmanager, agent, spool-full]");
  }

  @Test
  void endpointsComeFromDefaultsEnvironmentAndFlagsInThatOrder() {
    Endpoints d = Endpoints.fromEnvironment(Map.of());
    assertThat(d.kafka()).isEqualTo("127.0.0.1:19092");
    assertThat(d.registry()).isEqualTo("http://127.0.0.1:18081");
    assertThat(d.jdbc()).isEqualTo("jdbc:postgresql://127.0.0.1:15432/fleetscope");
    assertThat(d.consoleUrl()).isEqualTo("http://127.0.0.1:18080");
    assertThat(d.flink()).isEqualTo("http://127.0.0.1:18082");
    Map<String, String> env = Map.of("FLEETSCOPE_KAFKA", "k:9", "FLEETSCOPE_CONSOLE_PORT", "8");
    assertThat(Endpoints.fromEnvironment(env).kafka()).isEqualTo("k:9");

    RunCommand flags = new RunCommand(System.out, System.err);
    new CommandLine(flags).parseArgs("--kafka", "f:1", "--console-port", "9", "--flink", "http://f:2");
    Endpoints e = flags.endpoints.resolve(env);
    assertThat(e.kafka()).isEqualTo("f:1");
    assertThat(e.consolePort()).isEqualTo(9);
    assertThat(e.flink()).isEqualTo("http://f:2");
    assertThat(e.registry()).isEqualTo("http://127.0.0.1:18081");

    RunCommand bare = new RunCommand(System.out, System.err);
    new CommandLine(bare).parseArgs("--kafka");
    assertThat(bare.endpoints.resolve(env).kafka()).isEqualTo("k:9");
    assertThat(bare.endpoints.resolve(env).consolePort()).isEqualTo(8);
  }

  @Test
  void replaySpeedIsMaxOrAPositiveMultiple() {
    assertThat(ReplayCommand.parseSpeed("max")).isZero();
    assertThat(ReplayCommand.parseSpeed("1x")).isEqualTo(1.0);
    assertThat(ReplayCommand.parseSpeed("10x")).isEqualTo(10.0);
    assertThatThrownBy(() -> ReplayCommand.parseSpeed("0x")).hasMessageContaining("--speed must be");
    assertThatThrownBy(() -> ReplayCommand.parseSpeed("fast")).hasMessageContaining("--speed must be");
  }
}
