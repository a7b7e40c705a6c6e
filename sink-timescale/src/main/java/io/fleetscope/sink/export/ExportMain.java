package io.fleetscope.sink.export;

import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.query.QueryMain;
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

/**
 * {@code export --from TIME --to TIME [--where cluster=C|node=N|rack=R ...] --out DIR [--jdbc URL] [--user U]}:
 * writes an incident's records as JSON lines per topic plus manifest.json (see {@link Exporter});
 * {@code replay DIR} publishes them back. Times as for queries (ISO-8601, date, epoch ms, now-6h).
 * Connection from --jdbc or FLEETSCOPE_JDBC_URL, user from --user or FLEETSCOPE_JDBC_USER.
 */
public final class ExportMain {
  private ExportMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.getenv(), System.out, System.err));
  }

  static String usage() {
    return "usage: export --from TIME --to TIME [--where cluster=C|node=N|rack=R ...] --out DIR [--jdbc URL] [--user U]";
  }

  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    String jdbc = env.getOrDefault("FLEETSCOPE_JDBC_URL", QueryMain.DEFAULT_JDBC);
    String user = env.getOrDefault("FLEETSCOPE_JDBC_USER", "fleetscope");
    String password = env.getOrDefault("FLEETSCOPE_JDBC_PASSWORD", "");
    Instant from = null;
    Instant to = null;
    Path dir = null;
    List<String> where = new ArrayList<>();
    Map<String, String> filters;
    Instant now = Instant.now();
    QueryParam fromP = QueryParam.required("from", QueryParam.Type.TIME, "start");
    QueryParam toP = QueryParam.required("to", QueryParam.Type.TIME, "end");
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("missing value after " + a);
        }
        String v = args[++i];
        switch (a) {
          case "--from" -> from = (Instant) fromP.parse(v, now);
          case "--to" -> to = (Instant) toP.parse(v, now);
          case "--where" -> where.add(v);
          case "--out" -> dir = Path.of(v);
          case "--jdbc" -> jdbc = v;
          case "--user" -> user = v;
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
      if (from == null || to == null || dir == null) {
        throw new IllegalArgumentException("--from, --to and --out are required");
      }
      filters = Exporter.parseWhere(where);
    } catch (IllegalArgumentException e) {
      err.println("export: " + e.getMessage());
      err.println(usage());
      return 2;
    }
    try (Connection c = new Database(jdbc, user, password, "").open()) {
      new Exporter(c, out).export(from, to, filters, dir);
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("export: " + e.getMessage());
      return 2;
    } catch (SQLException | IOException e) {
      err.println("export: failed: " + e.getMessage() + " (jdbc=" + jdbc + ")");
      return 1;
    }
  }
}
