package io.fleetscope.agent.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Hostile variants of real captures, reproducible from a seed: truncated, numbers replaced by huge,
 * negative, NaN or not-a-number values, timestamps years off, lines dropped, repeated or swapped
 * (counters going backwards), bytes flipped, deep nesting, or random text.
 */
public final class Mutations {
  private Mutations() {}

  /** Values put in place of numbers and fields. */
  public static final List<String> VALUES = List.of(
      "NaN", "-NaN", "nan", "Infinity", "-Infinity", "inf", "1e309", "-1e309", "-1", "-0", "4.9e-324",
      "1.7976931348623157e308", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
      "18446744073709551616", "99999999999999999999999999999999999999", "2147483648", "-2147483649",
      "0x", "0xFFFFFFFFFFFFFFFFFFFF", "0x-1", "", " ", "[N/A]", "N/A", "[Not Supported]", "[Unknown Error]",
      "253402300800000", "-62135596800000", "32503680000", "1970/01/01 00:00:00.000", "9999/12/31 23:59:59.999",
      "\u0000", "\uFFFF", "\uD800", "\u202E", "\u00e9", "%s%n", "'", "\"", ",", "|", ";", ":", "=", "{", "}", "[",
      "]", "<", ">", "&amp;", "&#0;", "&undefined;", "\\", "\r", "\n", "\t", "1,5", "1.2.3", "--1", "+-1", "1e",
      "e5", "0.1e-", "１２３");

  /** One mutated variant of one of the originals, deterministic in the seed. */
  public static String text(List<String> originals, long seed) {
    Random r = new Random(seed);
    if (r.nextInt(20) == 0) {
      return randomText(r, r.nextInt(2000));
    }
    String s = originals.get(r.nextInt(originals.size()));
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      s = once(s, r);
    }
    return s;
  }

  static String once(String s, Random r) {
    int len = s.length();
    int at = len == 0 ? 0 : r.nextInt(len + 1);
    switch (r.nextInt(10)) {
      case 0:
        return s.substring(0, at); // truncated
      case 1:
      case 2:
        return replaceNumber(s, r, pick(r));
      case 3:
        return s.substring(0, at) + pick(r) + s.substring(at);
      case 4: {
        int end = Math.min(len, at + r.nextInt(200));
        return s.substring(0, at) + s.substring(end);
      }
      case 5:
        return lines(s, r);
      case 6: {
        if (len == 0) {
          return s;
        }
        int i = Math.min(at, len - 1);
        return s.substring(0, i) + (char) r.nextInt(0x3000) + s.substring(i + 1);
      }
      case 7:
        return s.substring(0, at) + nesting(r) + s.substring(at);
      case 8:
        return replaceNumber(s, r, Long.toString(r.nextLong()));
      default:
        return replaceNumber(s, r, (r.nextBoolean() ? "-" : "") + "9".repeat(1 + r.nextInt(400)));
    }
  }

  /** Deep nesting or a huge token. */
  static String nesting(Random r) {
    int depth = 1 + r.nextInt(r.nextBoolean() ? 50 : 5000);
    return switch (r.nextInt(5)) {
      case 0 -> "[".repeat(depth);
      case 1 -> "{\"a\":".repeat(depth);
      case 2 -> "<a>".repeat(depth);
      case 3 -> "x".repeat(depth * 20);
      default -> "(".repeat(depth);
    };
  }

  static String pick(Random r) {
    return VALUES.get(r.nextInt(VALUES.size()));
  }

  /** Replaces the n-th run of digits (with its sign, point and exponent) by v. */
  static String replaceNumber(String s, Random r, String v) {
    List<int[]> runs = new ArrayList<>();
    int i = 0;
    while (i < s.length() && runs.size() < 2000) {
      if (Character.isDigit(s.charAt(i))) {
        int start = i > 0 && s.charAt(i - 1) == '-' ? i - 1 : i;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == 'e')) {
          i++;
        }
        runs.add(new int[] {start, i});
      } else {
        i++;
      }
    }
    if (runs.isEmpty()) {
      return s + v;
    }
    int[] run = runs.get(r.nextInt(runs.size()));
    return s.substring(0, run[0]) + v + s.substring(run[1]);
  }

  static String lines(String s, Random r) {
    List<String> ls = new ArrayList<>(List.of(s.split("\n", -1)));
    if (ls.size() < 2) {
      return s + "\n" + s;
    }
    int a = r.nextInt(ls.size());
    int b = r.nextInt(ls.size());
    switch (r.nextInt(3)) {
      case 0 -> ls.remove(a);
      case 1 -> ls.add(b, ls.get(a));
      default -> {
        String t = ls.get(a);
        ls.set(a, ls.get(b));
        ls.set(b, t);
      }
    }
    return String.join("\n", ls);
  }

  static String randomText(Random r, int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.append(r.nextInt(4) == 0 ? (char) r.nextInt(0x3000) : (char) (32 + r.nextInt(95)));
    }
    return sb.toString();
  }

  /** Random bytes, or a real byte array with bytes flipped, inserted or cut. */
  public static byte[] bytes(List<byte[]> originals, long seed) {
    Random r = new Random(seed);
    if (originals.isEmpty() || r.nextInt(10) == 0) {
      byte[] b = new byte[r.nextInt(512)];
      r.nextBytes(b);
      return b;
    }
    byte[] b = originals.get(r.nextInt(originals.size())).clone();
    int n = 1 + r.nextInt(4);
    for (int k = 0; k < n && b.length > 0; k++) {
      int at = r.nextInt(b.length);
      switch (r.nextInt(3)) {
        case 0 -> b[at] = (byte) r.nextInt(256);
        case 1 -> b = java.util.Arrays.copyOf(b, at);
        default -> {
          byte[] c = new byte[b.length + 1];
          System.arraycopy(b, 0, c, 0, at);
          c[at] = (byte) r.nextInt(256);
          System.arraycopy(b, at, c, at + 1, b.length - at);
          b = c;
        }
      }
    }
    return b;
  }

  /** A deep copy of a JSON tree with some values replaced by hostile ones (numbers, types, nesting). */
  public static JsonNode json(JsonNode original, Random r) {
    JsonNode copy = original.deepCopy();
    List<JsonNode> containers = new ArrayList<>();
    collect(copy, containers);
    int n = 1 + r.nextInt(5);
    for (int i = 0; i < n && !containers.isEmpty(); i++) {
      JsonNode c = containers.get(r.nextInt(containers.size()));
      if (c instanceof ObjectNode o && o.size() > 0) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        o.set(names.get(r.nextInt(names.size())), hostileNode(r));
      } else if (c instanceof ArrayNode a && a.size() > 0) {
        a.set(r.nextInt(a.size()), hostileNode(r));
      }
    }
    return copy;
  }

  private static void collect(JsonNode n, List<JsonNode> out) {
    if (n.isContainerNode()) {
      out.add(n);
      for (Iterator<JsonNode> it = n.elements(); it.hasNext(); ) {
        collect(it.next(), out);
      }
    }
  }

  static JsonNode hostileNode(Random r) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    return switch (r.nextInt(12)) {
      case 0 -> f.numberNode(Double.NaN);
      case 1 -> f.numberNode(Double.POSITIVE_INFINITY);
      case 2 -> f.numberNode(new BigInteger("9".repeat(1 + r.nextInt(60))));
      case 3 -> f.numberNode(-r.nextDouble() * Math.pow(10, r.nextInt(300)));
      case 4 -> f.numberNode(r.nextLong());
      case 5 -> f.textNode(pick(r));
      case 6 -> f.nullNode();
      case 7 -> f.booleanNode(r.nextBoolean());
      case 8 -> f.objectNode().put("Reading", pick(r));
      case 9 -> {
        ArrayNode a = f.arrayNode();
        ArrayNode cur = a;
        for (int d = r.nextInt(2000); d > 0; d--) {
          cur = cur.addArray();
        }
        yield a;
      }
      case 10 -> f.objectNode().set("@odata.id", f.textNode(pick(r)));
      default -> f.objectNode();
    };
  }

  /** Every value of a map with some replaced by hostile values. */
  public static Map<String, String> values(Map<String, String> original, Random r) {
    Map<String, String> m = new java.util.TreeMap<>(original);
    List<String> keys = new ArrayList<>(m.keySet());
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n && !keys.isEmpty(); i++) {
      String k = keys.get(r.nextInt(keys.size()));
      m.put(k, r.nextBoolean() ? pick(r) + "\n" : once(m.get(k), r));
    }
    return m;
  }
}
