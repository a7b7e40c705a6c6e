package io.fleetscope.sink.query;

import io.fleetscope.schemas.cli.CommandLines;
import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.JdbcOptions;
import io.fleetscope.sink.db.Database;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code query [NAME [--param k=v ...] [--format table|csv|json] [--jdbc URL] [--jdbc-user U]]}: runs a
 * named SRE query; without NAME lists the queries and their parameters. The connection comes from
 * {@link JdbcOptions} (flags, then {@code FLEETSCOPE_JDBC_*}, then the local stack).
 */
@Command(name = "query", sortOptions = false,
    description = "Runs a named SRE query against TimescaleDB; without NAME lists the queries and their parameters.")
public final class QueryMain implements Callable<Integer> {
  @Mixin HelpOption help;

  @Parameters(arity = "0..1", paramLabel = "NAME", description = "the query (see the list below)")
  String name;

  @Option(names = "--param", paramLabel = "K=V", description = "a parameter of the query")
  List<String> params = new ArrayList<>();

  @Option(names = "--format", paramLabel = "table|csv|json", description = "output format (default: ${DEFAULT-VALUE})")
  String format = "table";

  @Mixin JdbcOptions jdbc;

  private final Map<String, String> env;
  private final PrintStream out;
  private final PrintStream err;

  /** The command reading {@code env} for the connection defaults and printing to {@code out} and {@code err}. */
  public QueryMain(Map<String, String> env, PrintStream out, PrintStream err) {
    this.env = env;
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.getenv(), System.out, System.err));
  }

  /** Runs the command; returns the exit code (0 ok, 2 usage error, 1 database error). */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    return commandLine(new QueryMain(env, out, err), out, err).execute(args);
  }

  /** The command line of {@code command}, with the list of queries in its help. */
  public static CommandLine commandLine(QueryMain command, PrintStream out, PrintStream err) {
    CommandLine cl = CommandLines.create(command, out, err);
    cl.getCommandSpec().usageMessage().footer("%nQueries:%n" + SreQueries.list().replace("%", "%%"));
    return cl;
  }

  @Override
  public Integer call() {
    if (name == null) {
      out.print(SreQueries.list());
      return 0;
    }
    NamedQuery q;
    ResultFormatter.Format f;
    Map<String, Object> values;
    try {
      q = SreQueries.require(name);
      f = ResultFormatter.Format.parse(format);
      values = q.resolve(keyValues(params), Instant.now());
    } catch (IllegalArgumentException e) {
      err.println("query: " + e.getMessage());
      if (e.getMessage().startsWith("unknown query")) {
        err.print(SreQueries.list());
      }
      return CommandLines.USAGE;
    }
    String url = jdbc.url(env);
    try (Connection c = new Database(url, jdbc.user(env), jdbc.password(env), "").open()) {
      c.setReadOnly(true);
      try (PreparedStatement p = q.prepare(c, values); ResultSet rs = p.executeQuery()) {
        ResultFormatter.write(rs, f, out);
      }
      return 0;
    } catch (SQLException e) {
      err.println("query: " + q.name() + " failed: " + e.getMessage().lines().findFirst().orElse("") + " (jdbc=" + url + ")");
      return CommandLines.FAILED;
    }
  }

  private static Map<String, String> keyValues(List<String> params) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String v : params) {
      int eq = v.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--param needs k=v, got '" + v + "'");
      }
      m.put(v.substring(0, eq), v.substring(eq + 1));
    }
    return m;
  }
}
