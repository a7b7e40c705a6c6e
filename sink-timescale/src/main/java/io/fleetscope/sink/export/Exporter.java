package io.fleetscope.sink.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.write.TableSpec;
import io.fleetscope.sink.write.TableWriter;
import io.fleetscope.sink.write.Tables;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Writes an incident's records from TimescaleDB as JSON lines, one file per topic, plus
 * manifest.json: the raw telemetry in [from, to) and, so that a replay has the topology and job
 * ownership, the newest inventory and jobs record per key as of {@code to}. Filters
 * ({@code cluster=}, {@code node=}, {@code rack=}) are ANDed; node and rack reach the PDUs and
 * CDUs that feed them through the current inventory.
 */
public final class Exporter {
  public static final List<String> WHERE_KEYS = List.of("cluster", "node", "rack");
  static final List<String> RAW = List.of(Topics.GPU, Topics.GPU_XID, Topics.IB, Topics.PDU, Topics.COOLANT, Topics.CKPT);
  static final List<String> STATE = List.of(Topics.INVENTORY, Topics.JOBS);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PROGRESS_EVERY = 50_000;

  /** What was written for one topic. */
  public record FileEntry(String topic, String file, long records) {}

  private final Connection c;
  private final PrintStream progress;

  public Exporter(Connection c, PrintStream progress) {
    this.c = c;
    this.progress = progress;
  }

  public static Map<String, String> parseWhere(List<String> clauses) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String w : clauses) {
      int eq = w.indexOf('=');
      if (eq <= 0 || !WHERE_KEYS.contains(w.substring(0, eq))) {
        throw new IllegalArgumentException("--where must be one of " + String.join("=..., ", WHERE_KEYS) + "=..., got '" + w + "'");
      }
      m.put(w.substring(0, eq), w.substring(eq + 1));
    }
    return m;
  }

  public List<FileEntry> export(Instant from, Instant to, Map<String, String> where, Path out) throws SQLException, IOException {
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException("--from must be before --to");
    }
    Files.createDirectories(out);
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false); // lets the driver stream rows with a fetch size
    List<FileEntry> files = new ArrayList<>();
    try {
      for (String topic : STATE) {
        files.add(exportTopic(topic, from, to, where, out, true));
      }
      for (String topic : RAW) {
        files.add(exportTopic(topic, from, to, where, out, false));
      }
      c.commit();
    } finally {
      c.setAutoCommit(auto);
    }
    writeManifest(from, to, where, files, out);
    long total = files.stream().mapToLong(FileEntry::records).sum();
    progress.println("export done records=" + total + " files=" + files.size() + " dir=" + out);
    return files;
  }

  private FileEntry exportTopic(String topic, Instant from, Instant to, Map<String, String> where, Path out, boolean state)
      throws SQLException, IOException {
    TableSpec spec = Tables.forTopic(topic);
    Schema schema = Topics.require(topic).schema();
    RowDecoder dec = new RowDecoder(schema, TableWriter.columns(c, spec.table()));
    List<Object> binds = new ArrayList<>();
    StringBuilder sql = new StringBuilder("SELECT ");
    if (state) {
      String key = String.join(", ", spec.currentKey());
      sql.append("DISTINCT ON (").append(key).append(") ").append(dec.selectList()).append(" FROM ").append(spec.table())
          .append(" WHERE ts < ?");
      binds.add(Timestamp.from(to));
    } else {
      sql.append(dec.selectList()).append(" FROM ").append(spec.table()).append(" WHERE ts >= ? AND ts < ?");
      binds.add(Timestamp.from(from));
      binds.add(Timestamp.from(to));
    }
    String nodeCol = topic.equals(Topics.INVENTORY) ? "id" : schema.getField("node") != null ? "node" : null;
    boolean device = schema.getField("device") != null && nodeCol == null;
    for (Map.Entry<String, String> w : where.entrySet()) {
      switch (w.getKey()) {
        case "cluster" -> {
          sql.append(" AND cluster = ?");
          binds.add(w.getValue());
        }
        case "node" -> {
          if (device) {
            sql.append(" AND device IN (SELECT cdu FROM inventory_current WHERE kind = 'node' AND id = ? "
                + "UNION SELECT split_part(o, '/', 1) FROM inventory_current, jsonb_array_elements_text(pdu_outlets) o "
                + "WHERE kind = 'node' AND id = ?)");
            binds.add(w.getValue());
            binds.add(w.getValue());
          } else if (topic.equals(Topics.INVENTORY)) {
            sql.append(" AND (id = ? OR id IN (SELECT cdu FROM inventory_current WHERE kind = 'node' AND id = ? "
                + "UNION SELECT split_part(o, '/', 1) FROM inventory_current, jsonb_array_elements_text(pdu_outlets) o "
                + "WHERE kind = 'node' AND id = ?))");
            binds.add(w.getValue());
            binds.add(w.getValue());
            binds.add(w.getValue());
          } else {
            sql.append(" AND ").append(nodeCol).append(" = ?");
            binds.add(w.getValue());
          }
        }
        case "rack" -> {
          String nodesOfRack = "SELECT id FROM inventory_current WHERE kind = 'node' AND rack = ?";
          String devicesOfRack = "SELECT id FROM inventory_current WHERE kind IN ('pdu', 'cdu') AND (rack = ? OR racks @> jsonb_build_array(CAST(? AS text)))";
          if (device) {
            sql.append(" AND device IN (").append(devicesOfRack).append(")");
            binds.add(w.getValue());
            binds.add(w.getValue());
          } else if (topic.equals(Topics.INVENTORY)) {
            sql.append(" AND (rack = ? OR id = ? OR id IN (").append(devicesOfRack)
                .append("))");
            binds.add(w.getValue());
            binds.add(w.getValue());
            binds.add(w.getValue());
            binds.add(w.getValue());
          } else {
            sql.append(" AND ").append(nodeCol).append(" IN (").append(nodesOfRack).append(")");
            binds.add(w.getValue());
          }
        }
        default -> throw new IllegalArgumentException("unknown filter " + w.getKey());
      }
    }
    if (state) {
      sql.append(" ORDER BY ").append(String.join(", ", spec.currentKey())).append(", ts DESC");
    } else {
      sql.append(" ORDER BY ts");
    }
    String file = topic + ".jsonl";
    long n = 0;
    try (PreparedStatement p = c.prepareStatement(sql.toString())) {
      for (int i = 0; i < binds.size(); i++) {
        p.setObject(i + 1, binds.get(i));
      }
      p.setFetchSize(5000);
      try (ResultSet rs = p.executeQuery();
           BufferedWriter wr = Files.newBufferedWriter(out.resolve(file), StandardCharsets.UTF_8)) {
        Schema.Field keyField = schema.getField(spec.keyField());
        while (rs.next()) {
          SpecificRecord r = dec.decode(rs);
          Object key = keyField == null ? null : r.get(keyField.pos());
          wr.write(JsonLines.toJson(new JsonLines.Line(topic, key == null ? null : key.toString(), r)));
          wr.write('\n');
          n++;
          if (n % PROGRESS_EVERY == 0) {
            progress.println("export progress topic=" + topic + " records=" + n);
          }
        }
      }
    }
    progress.println("export topic=" + topic + " records=" + n + " file=" + file);
    return new FileEntry(topic, file, n);
  }

  private static void writeManifest(Instant from, Instant to, Map<String, String> where, List<FileEntry> files, Path out)
      throws IOException {
    ObjectNode m = JSON.createObjectNode();
    m.put("format", "fleetscope-export-v1");
    m.put("from", from.toString());
    m.put("to", to.toString());
    ObjectNode w = m.putObject("where");
    where.forEach(w::put);
    m.put("created_at", Instant.now().toString());
    m.put("content", "JSON lines {topic,key,value} per topic; inventory and jobs: newest record per key before 'to'; "
        + "raw topics: every record with from <= ts < to, in ts order");
    ArrayNode a = m.putArray("files");
    long total = 0;
    for (FileEntry f : files) {
      ObjectNode o = a.addObject();
      o.put("topic", f.topic());
      o.put("file", f.file());
      o.put("records", f.records());
      total += f.records();
    }
    m.put("records", total);
    Files.writeString(out.resolve("manifest.json"), m.toPrettyString() + "\n", StandardCharsets.UTF_8);
  }
}
