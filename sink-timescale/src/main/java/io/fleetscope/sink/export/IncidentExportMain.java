package io.fleetscope.sink.export;

import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.bundle.SizeReport;
import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.JdbcOptions;
import io.fleetscope.sink.db.Database;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code incident export ID --out DIR [--margin 10m] [--analytics-config FILE]}: the postmortem
 * bundle of one incident (ID: its fingerprint, as the console and {@code query incidents} show it):
 * its blast radius from a margin before its start to a margin after its end, with everything
 * {@code export} writes (see {@link IncidentScope} for the scope).
 */
@Command(name = "export", sortOptions = false,
    description = "Writes the bundle of one incident: its blast radius, from --margin before its start to --margin after its end.")
public final class IncidentExportMain implements Callable<Integer> {
  /** Default margin before the start and after the end: more than the analytics' longest window (5 minutes). */
  public static final Duration DEFAULT_MARGIN = Duration.ofMinutes(10);

  @Mixin HelpOption help;

  @Parameters(paramLabel = "ID", description = "the incident's fingerprint")
  String id;

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "directory to write (must not hold a bundle)")
  Path out;

  @Option(names = "--margin", paramLabel = "DURATION", description = "before the start and after the end (default: 10m)")
  Duration margin = DEFAULT_MARGIN;

  @Mixin BundleOptions bundle;

  @Mixin ExportSourceOptions sources;

  @Mixin JdbcOptions jdbc;

  private final Map<String, String> env;
  private final PrintStream stdout;
  private final PrintStream stderr;

  public IncidentExportMain(Map<String, String> env, PrintStream out, PrintStream err) {
    this.env = env;
    this.stdout = out;
    this.stderr = err;
  }

  /** Runs {@code incident export ARGS}; the exit code (0 ok, 2 usage error, 1 database or file error). */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    return CommandLines.execute(new IncidentExportMain(env, out, err), args, out, err);
  }

  @Override
  public Integer call() {
    String url = jdbc.url(env);
    try (Connection c = new Database(url, jdbc.user(env), jdbc.password(env), "").open()) {
      IncidentScope.Found f = new IncidentScope(c).find(id, margin, Instant.now());
      stdout.println("incident export id=" + id + " from=" + f.from() + " to=" + f.to() + " firing=" + f.firing()
          + " versions=" + f.versions() + " members=" + f.members() + " scope=" + f.scope().asManifest());
      Manifest m;
      try (KafkaExportSource kafka = sources.open(env, stdout)) {
        m = new BundleExporter(c, kafka, stdout).export(
            new BundleExporter.Request(f.from(), f.to(), f.scope(), id, bundle.analyticsConfigText(),
                bundle.correlatorConfigText()), out);
      }
      stdout.print(SizeReport.of(m));
      return 0;
    } catch (SQLException | IOException e) {
      stderr.println("incident export: failed: " + e.getMessage() + " (jdbc=" + url + ")");
      return CommandLines.FAILED;
    }
  }
}
