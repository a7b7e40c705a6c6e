package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.sink.export.ExportMain;
import io.fleetscope.sink.query.QueryMain;
import io.fleetscope.sink.query.SreQueries;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The command lines of {@code query} and {@code export}: what they answer before any database is involved. */
class ToolCommandLinesTest {
  private record Out(int code, String out, String err) {}

  private static Out query(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = QueryMain.run(args, Map.of(), new PrintStream(o, true, StandardCharsets.UTF_8),
        new PrintStream(e, true, StandardCharsets.UTF_8));
    return new Out(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  private static Out export(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = ExportMain.run(args, Map.of(), new PrintStream(o, true, StandardCharsets.UTF_8),
        new PrintStream(e, true, StandardCharsets.UTF_8));
    return new Out(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
  }

  @Test
  void queryWithoutANameListsTheQueriesAndItsHelpToo() {
    Out list = query();
    assertThat(list.code()).isZero();
    assertThat(list.out()).isEqualTo(SreQueries.list());
    Out help = query("--help");
    assertThat(help.code()).isZero();
    assertThat(help.out()).contains("Usage: query", "--param=K=V", "--jdbc[=URL]", "--jdbc-user=USER", "Queries:", "gpu-history");
  }

  @Test
  void queryMistakesExitWithTwo() {
    Out unknown = query("no-such-query");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).startsWith("query: unknown query").contains("gpu-history");
    Out oldFlag = query("gpu-history", "--user", "u");
    assertThat(oldFlag.code()).isEqualTo(2);
    assertThat(oldFlag.err()).contains("Unknown options: '--user', 'u'");
    Out badParam = query("gpu-history", "--param", "node");
    assertThat(badParam.code()).isEqualTo(2);
    assertThat(badParam.err()).contains("--param needs k=v, got 'node'");
  }

  @Test
  void exportNeedsARangeAndADirectoryAndKnownFilters() {
    Out missing = export("--from", "now-1h");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("Missing required options: '--to=TIME', '--out=DIR'");
    Out where = export("--from", "now-1h", "--to", "now", "--where", "gpu=1", "--out", "x");
    assertThat(where.code()).isEqualTo(2);
    assertThat(where.err()).contains("--where must be one of cluster=..., node=..., rack=...");
  }
}
