package io.fleetscope.agent.collectors.pdu;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A vendor's OID map, as data: which table rows become {@code PduReading}s, how each row is
 * labelled (inlet, outlet, phase) and where each field lives, with its scale. Maps ship as JSON
 * resources under {@code io/fleetscope/agent/collectors/pdu/oidmaps/<vendor>.json}; a site may point
 * at its own file instead (key {@code oid_map_file}).
 *
 * <p>Label templates: {@code {index}} the row index, {@code {index:N}} its N-th sub-identifier,
 * {@code {@OID}} the string value at {@code OID.<row index>}, {@code {@OID:K}} the value at
 * {@code OID.<first K sub-identifiers of the row index>}.
 */
public record OidMap(String vendor, String description, List<Table> tables) {

  /** Vendors shipped with the agent. */
  public static final List<String> BUILT_IN = List.of("raritan-pdu2", "apc-rpdu2", "sentry4");

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]+)}");
  private static final Set<String> FIELDS =
      Set.of("power_w", "apparent_power_va", "current_a", "voltage_v", "energy_wh");
  private static final Set<String> LABELS = Set.of("inlet", "outlet", "phase");

  /** One table: its rows are the instances of the {@code rows} column. */
  public record Table(String name, String rows, Map<String, String> labels, Map<String, Field> fields) {}

  /**
   * Where one field lives: instance {@code oid.<row index>[.suffix]}, value {@code raw * scale /
   * 10^digits}, digits read at {@code digits_oid.<row index>[.suffix]} when given.
   */
  public record Field(
      String oid, String suffix, Double scale, @JsonProperty("digits_oid") String digitsOid) {
    public double scaleOrOne() {
      return scale == null ? 1.0 : scale;
    }
  }

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

  /** Loads a built-in map by vendor name. */
  public static OidMap builtIn(String vendor) {
    String res = "/io/fleetscope/agent/collectors/pdu/oidmaps/" + vendor + ".json";
    try (InputStream in = OidMap.class.getResourceAsStream(res)) {
      if (in == null) {
        throw new IllegalArgumentException("unknown PDU vendor '" + vendor + "', known: " + BUILT_IN);
      }
      return parse(in.readAllBytes(), vendor);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses and checks a map. */
  public static OidMap parse(byte[] json, String where) {
    OidMap map;
    try {
      map = JSON.readValue(json, OidMap.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("OID map " + where + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException("OID map " + where + ": " + e.getMessage());
    }
    map.check(where);
    return map;
  }

  private void check(String where) {
    if (vendor == null || vendor.isBlank()) {
      throw new IllegalArgumentException("OID map " + where + ": 'vendor' is missing");
    }
    if (tables == null || tables.isEmpty()) {
      throw new IllegalArgumentException("OID map " + where + ": 'tables' is empty");
    }
    for (int i = 0; i < tables.size(); i++) {
      Table t = tables.get(i);
      String at = "OID map " + where + ": tables[" + i + "]";
      if (t.rows() == null || !isOid(t.rows())) {
        throw new IllegalArgumentException(at + ".rows: not a numeric OID: " + t.rows());
      }
      if (t.fields() == null || t.fields().isEmpty()) {
        throw new IllegalArgumentException(at + ".fields: empty");
      }
      for (Map.Entry<String, Field> f : t.fields().entrySet()) {
        if (!FIELDS.contains(f.getKey())) {
          throw new IllegalArgumentException(at + ".fields." + f.getKey() + ": unknown field, known: " + FIELDS);
        }
        Field spec = f.getValue();
        if (spec.oid() == null || !isOid(spec.oid())) {
          throw new IllegalArgumentException(at + ".fields." + f.getKey() + ".oid: not a numeric OID: " + spec.oid());
        }
        if (spec.digitsOid() != null && !isOid(spec.digitsOid())) {
          throw new IllegalArgumentException(at + ".fields." + f.getKey() + ".digits_oid: not a numeric OID");
        }
      }
      if (t.labels() != null) {
        for (String k : t.labels().keySet()) {
          if (!LABELS.contains(k)) {
            throw new IllegalArgumentException(at + ".labels." + k + ": unknown label, known: " + LABELS);
          }
        }
      }
    }
  }

  /** The columns a walk must cover to evaluate this map (each becomes one GETBULK walk). */
  public Set<String> columns() {
    Set<String> out = new LinkedHashSet<>();
    for (Table t : tables) {
      out.add(t.rows());
      if (t.labels() != null) {
        for (String template : t.labels().values()) {
          Matcher m = PLACEHOLDER.matcher(template);
          while (m.find()) {
            String p = m.group(1);
            if (p.startsWith("@")) {
              int colon = p.indexOf(':');
              out.add(colon < 0 ? p.substring(1) : p.substring(1, colon));
            }
          }
        }
      }
      for (Field f : t.fields().values()) {
        out.add(f.oid());
        if (f.digitsOid() != null) {
          out.add(f.digitsOid());
        }
      }
    }
    return out;
  }

  /** Expands a label template for one row. */
  static String label(String template, String rowIndex, SnmpWalk walk) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder sb = new StringBuilder();
    String[] parts = rowIndex.split("\\.");
    while (m.find()) {
      String p = m.group(1);
      String value;
      if (p.equals("index")) {
        value = rowIndex;
      } else if (p.startsWith("index:")) {
        int n = Integer.parseInt(p.substring(6));
        value = n >= 1 && n <= parts.length ? parts[n - 1] : "";
      } else if (p.startsWith("@")) {
        int colon = p.indexOf(':');
        String oid = colon < 0 ? p.substring(1) : p.substring(1, colon);
        String idx = rowIndex;
        if (colon >= 0) {
          int k = Math.min(Integer.parseInt(p.substring(colon + 1)), parts.length);
          idx = String.join(".", java.util.Arrays.copyOf(parts, k));
        }
        SnmpValue v = walk.get(oid + "." + idx);
        value = v == null ? "" : v.text().trim();
      } else {
        throw new IllegalArgumentException("unknown placeholder {" + p + "} in label '" + template + "'");
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(value));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  private static boolean isOid(String s) {
    return s.matches("\\d+(\\.\\d+)+");
  }

  static Map<String, String> labelsOrEmpty(Table t) {
    return t.labels() == null ? Map.of() : new LinkedHashMap<>(t.labels());
  }
}
