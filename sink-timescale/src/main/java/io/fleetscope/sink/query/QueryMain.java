package io.fleetscope.sink.query;

import io.fleetscope.sink.db.Database;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code query [NAME [--param k=v ...] [--format table|csv|json] [--jdbc URL] [--user U]]}: runs a
 * named SRE query; without NAME lists the queries and their parameters. The connection comes
 * from --jdbc or FLEETSCOPE_JDBC_URL (default jdbc:postgresql://127.0.0.1:15432/fleetscope), the
 * user from --user or FLEETSCOPE_JDBC_USER (default fleetscope).
 */
public final class QueryMain {
  public static final String DEFAULT_JDBC = "jdbc:postgresql://127.0.0.1:15432/fleetscope";

  private QueryMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.getenv(), System.out, System.err));
  }

  /** Runs the command; returns the exit code (0 ok, 2 usage error, 1 database error). */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
      out.print(SreQueries.list());
      return 0;
    }
    String jdbc = env.getOrDefault("FLEETSCOPE_JDBC_URL", DEFAULT_JDBC);
    String user = env.getOrDefault("FLEETSCOPE_JDBC_USER", "fleetscope");
    String password = env.getOrDefault("FLEETSCOPE_JDBC_PASSWORD", "");
    NamedQuery q;
    Map<String, String> params = new LinkedHashMap<>();
    ResultFormatter.Format format = ResultFormatter.Format.TABLE;
    Map<String, Object> values;
    try {
      q = SreQueries.require(args[0]);
      for (int i = 1; i < args.length; i++) {
        String a = args[i];
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("missing value after " + a);
        }
        String v = args[++i];
        switch (a) {
          case "--param" -> {
            int eq = v.indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException("--param needs k=v, got '" + v + "'");
            }
            params.put(v.substring(0, eq), v.substring(eq + 1));
          }
          case "--format" -> format = ResultFormatter.Format.parse(v);
          case "--jdbc" -> jdbc = v;
          case "--user" -> user = v;
          default -> throw new IllegalArgumentException("unknown option " + a + "; allowed: --param k=v, --format, --jdbc, --user");
        }
      }
      values = q.resolve(params, Instant.now());
    } catch (IllegalArgumentException e) {
      err.println("query: " + e.getMessage());
      if (e.getMessage().startsWith("unknown query")) {
        err.print(SreQueries.list());
      }
      return 2;
    }
    try (Connection c = new Database(jdbc, user, password, "").open()) {
      c.setReadOnly(true);
      try (PreparedStatement p = q.prepare(c, values); ResultSet rs = p.executeQuery()) {
        ResultFormatter.write(rs, format, out);
      }
      return 0;
    } catch (SQLException e) {
      err.println("query: " + q.name() + " failed: " + e.getMessage().lines().findFirst().orElse("") + " (jdbc=" + jdbc + ")");
      return 1;
    }
  }
}
