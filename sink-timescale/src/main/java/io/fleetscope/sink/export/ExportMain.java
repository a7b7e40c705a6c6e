package io.fleetscope.sink.export;

import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.JdbcOptions;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.query.QueryParam;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code export --from TIME --to TIME [--where cluster=C|node=N|rack=R ...] --out DIR [--jdbc URL]
 * [--jdbc-user U]}: writes an incident's records as JSON lines per topic plus manifest.json (see
 * {@link Exporter}); {@code replay DIR} publishes them back. Times as for queries (ISO-8601, date,
 * epoch ms, now-6h). The connection comes from {@link JdbcOptions}.
 */
@Command(name = "export", sortOptions = false,
    description = {"Writes an incident's records as JSON lines per topic plus manifest.json; replay DIR publishes them back.",
        "Times: ISO-8601 instant, a date, epoch ms, or now-6h / now-30m."})
public final class ExportMain implements Callable<Integer> {
  @Mixin HelpOption help;

  @Option(names = "--from", paramLabel = "TIME", required = true, description = "start of the range (inclusive)")
  String from;

  @Option(names = "--to", paramLabel = "TIME", required = true, description = "end of the range (exclusive)")
  String to;

  @Option(names = "--where", paramLabel = "KEY=VALUE", description = "only cluster=C, node=N or rack=R (repeatable)")
  List<String> where = new ArrayList<>();

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "directory to write")
  Path out;

  @Mixin JdbcOptions jdbc;

  private final Map<String, String> env;
  private final PrintStream stdout;
  private final PrintStream stderr;

  /** The command reading {@code env} for the connection defaults and printing to {@code out} and {@code err}. */
  public ExportMain(Map<String, String> env, PrintStream out, PrintStream err) {
    this.env = env;
    this.stdout = out;
    this.stderr = err;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.getenv(), System.out, System.err));
  }

  /** Runs the command; returns the exit code (0 ok, 2 usage error, 1 database or file error). */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    return CommandLines.execute(new ExportMain(env, out, err), args, out, err);
  }

  @Override
  public Integer call() {
    Instant now = Instant.now();
    Instant start = (Instant) QueryParam.required("from", QueryParam.Type.TIME, "start").parse(from, now);
    Instant end = (Instant) QueryParam.required("to", QueryParam.Type.TIME, "end").parse(to, now);
    Map<String, String> filters = Exporter.parseWhere(where);
    String url = jdbc.url(env);
    try (Connection c = new Database(url, jdbc.user(env), jdbc.password(env), "").open()) {
      new Exporter(c, stdout).export(start, end, filters, out);
      return 0;
    } catch (SQLException | IOException e) {
      stderr.println("export: failed: " + e.getMessage() + " (jdbc=" + url + ")");
      return CommandLines.FAILED;
    }
  }
}
