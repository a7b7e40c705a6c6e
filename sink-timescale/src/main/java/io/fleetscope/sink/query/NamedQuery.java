package io.fleetscope.sink.query;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A named, parameterised SRE query over the SQL views. The SQL names its parameters as
 * {@code :name}; they are replaced by {@code ?} and bound in order.
 */
public record NamedQuery(String name, String description, String sql, List<QueryParam> params) {
  private static final Pattern PLACEHOLDER = Pattern.compile("(?<!:):([a-z_]+)");

  public NamedQuery {
    Matcher m = PLACEHOLDER.matcher(sql);
    while (m.find()) {
      String p = m.group(1);
      if (params.stream().noneMatch(x -> x.name().equals(p))) {
        throw new IllegalArgumentException("query " + name + " uses :" + p + " but declares no such parameter");
      }
    }
  }

  public String usage() {
    return name + " - " + description + "\n" + params.stream().map(p -> "    --param " + p.describe())
        .collect(Collectors.joining("\n"));
  }

  /** Checks the given values (unknown names, missing required ones, types) and fills defaults. */
  public Map<String, Object> resolve(Map<String, String> given, Instant now) {
    for (String k : given.keySet()) {
      if (params.stream().noneMatch(p -> p.name().equals(k))) {
        throw new IllegalArgumentException("unknown parameter '" + k + "' for query " + name + "; allowed: "
            + params.stream().map(QueryParam::name).collect(Collectors.joining(", ")) + "\n" + usage());
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (QueryParam p : params) {
      String raw = given.containsKey(p.name()) ? given.get(p.name()) : p.defaultValue();
      if (raw == null) {
        throw new IllegalArgumentException("query " + name + " needs --param " + p.name() + "=...\n" + usage());
      }
      values.put(p.name(), p.parse(raw, now));
    }
    return values;
  }

  /** The statement with every parameter bound. */
  public PreparedStatement prepare(Connection c, Map<String, Object> values) throws SQLException {
    List<String> order = new ArrayList<>();
    Matcher m = PLACEHOLDER.matcher(sql);
    StringBuilder jdbc = new StringBuilder();
    while (m.find()) {
      order.add(m.group(1));
      m.appendReplacement(jdbc, "?");
    }
    m.appendTail(jdbc);
    PreparedStatement p = c.prepareStatement(jdbc.toString());
    for (int i = 0; i < order.size(); i++) {
      QueryParam.bind(p, i + 1, values.get(order.get(i)));
    }
    return p;
  }
}
