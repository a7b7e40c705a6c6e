package io.fleetscope.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;

/**
 * The console's drill-down API and the chart library's files, behind {@link ConsoleServer}'s routes.
 *
 * <pre>
 * GET /api/heatmap?metric=headroom|risk|ecc|throttle     the fleet, one cell per GPU (see {@link Heatmap})
 * GET /api/gpu?node=N&amp;gpu=I&amp;last=1h                    one GPU over a range (or from=...&amp;to=..., ISO-8601)
 * GET /api/rails/history?last=1h                         every rail over a range
 * GET /api/incidents/recent?last=24h&amp;limit=50            incidents active in the range, newest first
 * GET /api/incident?fingerprint=F                        one incident with its timeline
 * GET /api/checkpoints?last=6h                           per job: throughput against the SLO, burn rates, interval
 * GET /api/job/incidents?job=J&amp;last=30d                 a training job's incidents and what each put at risk
 * GET /api/storage, /api/fabric                          storage tiers and fabric configuration: see {@link StorageFabricViews}
 * GET /assets/uPlot.iife.min.js, /assets/uPlot.min.css, /assets/uPlot.LICENSE
 * GET /docs/runbooks.md                                  the runbooks as a page, one anchor per alert name
 * </pre>
 *
 * A range is {@code last} or {@code from}/{@code to} (see {@link TimeRange}); bad parameters are
 * {@link ConsoleServer.BadParam} (400), unknown things {@link FleetQueries.NotFound} (404).
 */
final class ConsoleApi {
  /** What a route answers. */
  record Answer(int status, String type, byte[] body) {
    static Answer json(Object node) {
      return new Answer(200, "application/json", node.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Opens a read-only connection as the console's database user. */
  interface Db {
    Connection connect() throws SQLException;
  }

  static final String UPLOT_VERSION = webjarVersion("uplot");
  static final java.util.List<String> PATHS = java.util.List.of("/api/heatmap", "/api/gpu", "/api/rails/history",
      "/api/incidents/recent", "/api/incident", "/api/checkpoints", "/api/job/incidents", "/api/storage", "/api/fabric");

  private final Db db;
  private final Duration staleAfter;

  ConsoleApi(Db db, Duration staleAfter) {
    this.db = db;
    this.staleAfter = staleAfter;
  }

  /** The answer of a path this class serves, or null for any other path. */
  Answer answer(String path, Map<String, String> q) throws SQLException, IOException {
    switch (path) {
      case "/api/heatmap": {
        Heatmap.Metric m = Heatmap.Metric.parse(q.get("metric"));
        try (Connection c = db.connect()) {
          var out = Heatmap.build(m, FleetQueries.heatmapCells(c, staleAfter));
          out.put("as_of", Instant.now().toString());
          return Answer.json(out);
        }
      }
      case "/api/gpu": {
        String node = node(q);
        int gpu = ConsoleServer.intParam(q, "gpu", -1, 0, 255);
        if (gpu < 0) {
          throw new ConsoleServer.BadParam("gpu is required: the GPU's index on the node, 0 to 255");
        }
        TimeRange r = TimeRange.parse(q, Instant.now());
        try (Connection c = db.connect()) {
          return Answer.json(FleetQueries.gpuHistory(c, node, gpu, r));
        }
      }
      case "/api/rails/history": {
        TimeRange r = TimeRange.parse(q, Instant.now());
        try (Connection c = db.connect()) {
          return Answer.json(FleetQueries.railHistory(c, r));
        }
      }
      case "/api/incidents/recent": {
        TimeRange r = TimeRange.parse(q.containsKey("from") || q.containsKey("to") || q.containsKey("last") ? q
            : Map.of("last", "24h"), Instant.now());
        int limit = ConsoleServer.intParam(q, "limit", 50, 1, 500);
        try (Connection c = db.connect()) {
          return Answer.json(FleetQueries.incidents(c, r, limit));
        }
      }
      case "/api/incident": {
        String fp = q.get("fingerprint");
        if (fp == null || fp.isBlank() || fp.length() > 200) {
          throw new ConsoleServer.BadParam("fingerprint is required (at most 200 characters)");
        }
        try (Connection c = db.connect()) {
          return Answer.json(FleetQueries.incident(c, fp));
        }
      }
      case "/api/checkpoints": {
        TimeRange r = TimeRange.parse(q.containsKey("from") || q.containsKey("to") || q.containsKey("last") ? q
            : Map.of("last", "6h"), Instant.now());
        try (Connection c = db.connect()) {
          return Answer.json(FleetQueries.checkpoints(c, r));
        }
      }
      case "/api/job/incidents": {
        String job = q.get("job");
        if (job == null || job.isBlank() || job.length() > 200) {
          throw new ConsoleServer.BadParam("job is required (at most 200 characters)");
        }
        TimeRange r = TimeRange.parse(q.containsKey("from") || q.containsKey("to") || q.containsKey("last") ? q
            : Map.of("last", "30d"), Instant.now());
        try (Connection c = db.connect()) {
          return Answer.json(FleetQueries.jobIncidents(c, job, r));
        }
      }
      case "/assets/uPlot.iife.min.js":
        return asset("dist/uPlot.iife.min.js", "text/javascript; charset=utf-8");
      case "/assets/uPlot.min.css":
        return asset("dist/uPlot.min.css", "text/css; charset=utf-8");
      case "/assets/uPlot.LICENSE":
        return asset("LICENSE", "text/plain; charset=utf-8");
      case RunbookPage.PATH:
        return new Answer(200, "text/html; charset=utf-8", RunbookPage.html());
      default:
        return StorageFabricViews.answer(db, path, q);
    }
  }

  private static String node(Map<String, String> q) {
    String node = q.get("node");
    if (node == null || node.isBlank()) {
      throw new ConsoleServer.BadParam("node is required");
    }
    if (node.length() > 200) {
      throw new ConsoleServer.BadParam("node is at most 200 characters");
    }
    return node;
  }

  private static Answer asset(String file, String type) throws IOException {
    String path = "/META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/" + file;
    try (InputStream in = ConsoleApi.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IOException("console asset missing from the classpath: " + path);
      }
      return new Answer(200, type, in.readAllBytes());
    }
  }

  /** The version of an npm webjar on the classpath, from its Maven properties. */
  static String webjarVersion(String artifact) {
    try (InputStream in = ConsoleApi.class.getResourceAsStream("/META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties")) {
      if (in == null) {
        throw new IllegalStateException("webjar " + artifact + " is not on the classpath");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new IllegalStateException("webjar " + artifact + ": " + e.getMessage(), e);
    }
  }
}
