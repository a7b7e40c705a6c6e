package io.fleetscope.sink.export;

import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.JdbcOptions;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.bundle.SizeReport;
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
 * {@code export --from TIME --to TIME [--where cluster=C|node=N|rack=R ...] --out DIR
 * [--analytics-config FILE] [--source auto|timescaledb] [--prefix P] [--kafka B] [--registry URL] [--jdbc URL]
 * [--jdbc-user U]}: writes a bundle (see
 * {@link BundleExporter}) and prints its size report; {@code replay DIR}, {@code analyze --in DIR}
 * and {@code backtest DIR} read it. Times as for queries (ISO-8601, date, epoch ms, now-6h). The
 * connection comes from {@link JdbcOptions}.
 */
@Command(name = "export", sortOptions = false,
    description = {"Writes a bundle of the records in a time range (Avro container files per topic plus manifest.json);"
        + " replay DIR, analyze --in DIR and backtest DIR read it.",
        "Times: ISO-8601 instant, a date, epoch ms, or now-6h / now-30m."})
public final class ExportMain implements Callable<Integer> {
  @Mixin HelpOption help;

  @Option(names = "--from", paramLabel = "TIME", required = true, description = "start of the range (inclusive)")
  String from;

  @Option(names = "--to", paramLabel = "TIME", required = true, description = "end of the range (exclusive)")
  String to;

  @Option(names = "--where", paramLabel = "KEY=VALUE",
      description = "only cluster=C, node=N or rack=R (repeatable; values of one key ORed, keys ANDed)")
  List<String> where = new ArrayList<>();

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "directory to write (must not hold a bundle)")
  Path out;

  @Mixin BundleOptions bundle;

  @Mixin ExportSourceOptions sources;

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
    if (!start.isBefore(end)) {
      throw new IllegalArgumentException("--from must be before --to");
    }
    ExportScope scope = ExportScope.parseWhere(where);
    String url = jdbc.url(env);
    try (Connection c = new Database(url, jdbc.user(env), jdbc.password(env), "").open();
        KafkaExportSource kafka = sources.open(env, stdout)) {
      Manifest m = new BundleExporter(c, kafka, stdout).export(
          new BundleExporter.Request(start, end, scope, null, bundle.analyticsConfigText(), bundle.correlatorConfigText()), out);
      stdout.print(SizeReport.of(m));
      return 0;
    } catch (SQLException | IOException e) {
      stderr.println("export: failed: " + e.getMessage() + " (jdbc=" + url + ")");
      return CommandLines.FAILED;
    }
  }
}
