package io.fleetscope.flink.ecc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * NVIDIA XID codes with their meaning (classpath resource {@code xid-catalog.csv}, derived from
 * NVIDIA's Xid catalog; see the header of the file) and FleetScope's severity per code.
 */
public final class XidCatalog implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String RESOURCE = "/xid-catalog.csv";

  /** One XID code. */
  public record Xid(int code, String mnemonic, String description, String immediateAction,
      String investigatoryAction, String severity) implements Serializable {}

  private final Map<Integer, Xid> byCode;

  private XidCatalog(Map<Integer, Xid> byCode) {
    this.byCode = byCode;
  }

  public static XidCatalog load() {
    Map<Integer, Xid> m = new HashMap<>();
    try (InputStream in = XidCatalog.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + RESOURCE + " missing");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line;
      boolean header = true;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        if (header) {
          header = false;
          continue;
        }
        List<String> f = csv(line);
        if (f.size() < 6) {
          throw new IllegalStateException(RESOURCE + ": bad line " + line);
        }
        int code = Integer.parseInt(f.get(0));
        m.put(code, new Xid(code, f.get(1), f.get(2), f.get(3), f.get(4), f.get(5)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new XidCatalog(m);
  }

  /** The code's entry; an unknown code gets "unknown XID" with severity warning. */
  public Xid lookup(int code) {
    Xid x = byCode.get(code);
    return x != null ? x : new Xid(code, "UNKNOWN", "unknown XID " + code + " (not in NVIDIA's catalog)", "", "", "warning");
  }

  public int size() {
    return byCode.size();
  }

  static List<String> csv(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean q = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (q) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cur.append('"');
          i++;
        } else if (c == '"') {
          q = false;
        } else {
          cur.append(c);
        }
      } else if (c == '"') {
        q = true;
      } else if (c == ',') {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out;
  }
}
