package io.fleetscope.sink.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/** Writes a result set as an aligned table, CSV (RFC 4180) or a JSON array of objects. */
public final class ResultFormatter {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The output formats. */
  public enum Format {
    TABLE, CSV, JSON;

    public static Format parse(String s) {
      for (Format f : values()) {
        if (f.name().equalsIgnoreCase(s)) {
          return f;
        }
      }
      throw new IllegalArgumentException("unknown format '" + s + "'; allowed: table, csv, json");
    }
  }

  private ResultFormatter() {}

  /** Writes the rows; returns how many. */
  public static int write(ResultSet rs, Format f, PrintStream out) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      names.add(md.getColumnLabel(i));
    }
    List<Object[]> rows = new ArrayList<>();
    while (rs.next()) {
      Object[] row = new Object[n];
      for (int i = 0; i < n; i++) {
        Object o = rs.getObject(i + 1);
        row[i] = o instanceof Timestamp t ? t.toInstant() : o;
      }
      rows.add(row);
    }
    switch (f) {
      case CSV -> {
        out.println(String.join(",", names.stream().map(ResultFormatter::csv).toList()));
        for (Object[] r : rows) {
          List<String> cells = new ArrayList<>();
          for (Object o : r) {
            cells.add(o == null ? "" : csv(text(o)));
          }
          out.println(String.join(",", cells));
        }
      }
      case JSON -> {
        ArrayNode a = JSON.createArrayNode();
        for (Object[] r : rows) {
          ObjectNode o = a.addObject();
          for (int i = 0; i < n; i++) {
            Object v = r[i];
            if (v == null) {
              o.putNull(names.get(i));
            } else if (v instanceof Long l) {
              o.put(names.get(i), l);
            } else if (v instanceof Integer x) {
              o.put(names.get(i), x);
            } else if (v instanceof Double d) {
              o.put(names.get(i), d);
            } else if (v instanceof BigDecimal b) {
              o.put(names.get(i), b);
            } else if (v instanceof Boolean b) {
              o.put(names.get(i), b);
            } else {
              o.put(names.get(i), text(v));
            }
          }
        }
        out.println(a.toPrettyString());
      }
      default -> {
        int[] w = new int[n];
        for (int i = 0; i < n; i++) {
          w[i] = names.get(i).length();
        }
        List<String[]> cells = new ArrayList<>();
        for (Object[] r : rows) {
          String[] c = new String[n];
          for (int i = 0; i < n; i++) {
            c[i] = r[i] == null ? "" : text(r[i]);
            w[i] = Math.min(Math.max(w[i], c[i].length()), 80);
          }
          cells.add(c);
        }
        out.println(line(names.toArray(new String[0]), w));
        StringBuilder sep = new StringBuilder();
        for (int i = 0; i < n; i++) {
          sep.append(i == 0 ? "" : "-+-").append("-".repeat(w[i]));
        }
        out.println(sep);
        for (String[] c : cells) {
          out.println(line(c, w));
        }
        out.println("(" + rows.size() + " row" + (rows.size() == 1 ? "" : "s") + ")");
      }
    }
    return rows.size();
  }

  private static String line(String[] c, int[] w) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < c.length; i++) {
      String s = c[i].length() > w[i] ? c[i].substring(0, w[i] - 1) + "…" : c[i];
      sb.append(i == 0 ? "" : " | ").append(s).append(" ".repeat(w[i] - s.length()));
    }
    return sb.toString().stripTrailing();
  }

  private static String text(Object o) {
    return o instanceof BigDecimal b ? b.toPlainString() : o.toString();
  }

  static String csv(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
      return '"' + s.replace("\"", "\"\"") + '"';
    }
    return s;
  }
}
