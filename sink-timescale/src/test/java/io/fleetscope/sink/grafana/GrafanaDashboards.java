package io.fleetscope.sink.grafana;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The dashboards of {@code deploy/grafana/dashboards} and the queries in them, as Grafana reads them. */
public final class GrafanaDashboards {
  /** The provisioned data sources' uids (deploy/grafana/provisioning/datasources). */
  public static final String TIMESCALEDB = "fleetscope-timescaledb";
  public static final String PROMETHEUS = "fleetscope-prometheus";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One query: a panel target or a template variable's query. */
  public record Query(String dashboard, String panel, String datasourceUid, String format, String text) {
    @Override
    public String toString() {
      return dashboard + " / " + panel;
    }
  }

  /** A dashboard file with its parsed JSON. */
  public record Dashboard(Path file, JsonNode json) {
    public String title() {
      return json.path("title").asText();
    }
  }

  private GrafanaDashboards() {}

  /** {@code deploy/grafana} from a module directory (where Maven runs the tests) or the repository root. */
  public static Path root() {
    for (Path p : List.of(Path.of("../deploy/grafana"), Path.of("deploy/grafana"), Path.of("../../deploy/grafana"))) {
      if (Files.isDirectory(p.resolve("dashboards"))) {
        return p;
      }
    }
    throw new IllegalStateException("deploy/grafana/dashboards not found from " + Path.of("").toAbsolutePath());
  }

  public static List<Dashboard> all() {
    try (Stream<Path> files = Files.list(root().resolve("dashboards"))) {
      List<Dashboard> out = new ArrayList<>();
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        out.add(new Dashboard(f, JSON.readTree(f.toFile())));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every panel target and template-variable query of every dashboard. */
  public static List<Query> queries(List<Dashboard> dashboards) {
    List<Query> out = new ArrayList<>();
    for (Dashboard d : dashboards) {
      for (JsonNode v : d.json().path("templating").path("list")) {
        if ("query".equals(v.path("type").asText())) {
          out.add(new Query(d.title(), "variable $" + v.path("name").asText(), v.path("datasource").path("uid").asText(),
              "table", v.path("query").isTextual() ? v.path("query").asText() : v.path("query").path("query").asText()));
        }
      }
      for (JsonNode p : panels(d.json())) {
        for (JsonNode t : p.path("targets")) {
          String uid = t.path("datasource").path("uid").asText(p.path("datasource").path("uid").asText());
          String text = t.has("rawSql") ? t.path("rawSql").asText() : t.path("expr").asText();
          out.add(new Query(d.title(), p.path("title").asText() + " [" + t.path("refId").asText() + "]", uid,
              t.path("format").asText("time_series"), text));
        }
      }
    }
    return out;
  }

  /** The panels, including those inside collapsed rows. */
  public static List<JsonNode> panels(JsonNode dashboard) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode p : dashboard.path("panels")) {
      out.add(p);
      p.path("panels").forEach(out::add);
    }
    return out;
  }
}
