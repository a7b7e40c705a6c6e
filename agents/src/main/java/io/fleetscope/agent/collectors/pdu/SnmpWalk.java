package io.fleetscope.agent.collectors.pdu;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The variables of one SNMP walk, ordered by OID (numerically, as an agent orders them). Built from
 * a live walk or from an snmpsim {@code .snmprec} capture; the parsers only see this.
 */
public final class SnmpWalk {

  /** Orders dotted OIDs numerically by sub-identifier. */
  public static final Comparator<String> OID_ORDER = SnmpWalk::compareOids;

  private final NavigableMap<String, SnmpValue> values;

  public SnmpWalk(Map<String, SnmpValue> values) {
    TreeMap<String, SnmpValue> sorted = new TreeMap<>(OID_ORDER);
    values.forEach((oid, v) -> sorted.put(stripDot(oid), v));
    this.values = Collections.unmodifiableNavigableMap(sorted);
  }

  public SnmpValue get(String oid) {
    return values.get(stripDot(oid));
  }

  public int size() {
    return values.size();
  }

  public NavigableMap<String, SnmpValue> all() {
    return values;
  }

  /**
   * The instances below {@code column}: map from the index suffix (e.g. {@code 1.1.5}) to the value,
   * in OID order.
   */
  public Map<String, SnmpValue> column(String column) {
    String prefix = stripDot(column) + ".";
    Map<String, SnmpValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, SnmpValue> e : values.tailMap(prefix, true).entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        break;
      }
      out.put(e.getKey().substring(prefix.length()), e.getValue());
    }
    return out;
  }

  /**
   * Parses an snmpsim {@code .snmprec} file: one {@code OID|TYPE|VALUE} per line; a type with an
   * {@code x} suffix (e.g. {@code 4x}) carries a hex-encoded value.
   *
   * @throws IllegalArgumentException naming the line number when a line is malformed
   */
  /** Dotted numeric OID, optionally with a leading dot; each arc fits a long. */
  private static final java.util.regex.Pattern OID_SYNTAX = java.util.regex.Pattern.compile("\\.?\\d{1,18}(\\.\\d{1,18})*");

  public static SnmpWalk parseSnmprec(String text) {
    Map<String, SnmpValue> values = new LinkedHashMap<>();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int a = line.indexOf('|');
      int b = a < 0 ? -1 : line.indexOf('|', a + 1);
      if (a <= 0 || b < 0) {
        throw new IllegalArgumentException("snmprec line " + (i + 1) + ": expected OID|TYPE|VALUE, got '" + line + "'");
      }
      String oid = line.substring(0, a);
      if (!OID_SYNTAX.matcher(oid).matches()) {
        throw new IllegalArgumentException("snmprec line " + (i + 1) + ": bad OID '" + oid
            + "' (expected numbers of at most 18 digits separated by dots)");
      }
      String type = line.substring(a + 1, b);
      String value = line.substring(b + 1);
      boolean hex = type.endsWith("x");
      int tag;
      try {
        tag = Integer.parseInt(hex ? type.substring(0, type.length() - 1) : type);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("snmprec line " + (i + 1) + ": bad type '" + type + "'");
      }
      if (hex) {
        value = decodeHex(value, i + 1);
      }
      values.put(oid, new SnmpValue(tag, value));
    }
    return new SnmpWalk(values);
  }

  private static String decodeHex(String hex, int lineNo) {
    if (hex.length() % 2 != 0) {
      throw new IllegalArgumentException("snmprec line " + lineNo + ": odd-length hex value");
    }
    byte[] bytes = new byte[hex.length() / 2];
    for (int i = 0; i < bytes.length; i++) {
      int hi = Character.digit(hex.charAt(2 * i), 16);
      int lo = Character.digit(hex.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException("snmprec line " + lineNo + ": bad hex value '" + hex + "'");
      }
      bytes[i] = (byte) (hi << 4 | lo);
    }
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  static String stripDot(String oid) {
    return oid.startsWith(".") ? oid.substring(1) : oid;
  }

  static int compareOids(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ie = a.indexOf('.', i);
      int je = b.indexOf('.', j);
      if (ie < 0) {
        ie = a.length();
      }
      if (je < 0) {
        je = b.length();
      }
      long x = Long.parseLong(a, i, ie, 10);
      long y = Long.parseLong(b, j, je, 10);
      if (x != y) {
        return Long.compare(x, y);
      }
      i = ie + 1;
      j = je + 1;
    }
    boolean aDone = i >= a.length();
    boolean bDone = j >= b.length();
    if (aDone && bDone) {
      return 0;
    }
    return aDone ? -1 : 1;
  }
}
