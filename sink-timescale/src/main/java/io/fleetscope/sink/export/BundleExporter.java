package io.fleetscope.sink.export;

import io.fleetscope.avro.Alert;
import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.bundle.BundleRole;
import io.fleetscope.schemas.bundle.BundleWriter;
import io.fleetscope.schemas.bundle.Manifest;
import io.fleetscope.schemas.bundle.RecordSource;
import io.fleetscope.sink.write.TableSpec;
import io.fleetscope.sink.write.TableWriter;
import io.fleetscope.sink.write.Tables;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Writes a bundle (see {@link BundleWriter}) from TimescaleDB for a time range and scope: inventory
 * and job allocations as of {@code from} (the newest record per key) and their changes inside the
 * range; raw telemetry, derived streams and anomalies with {@code from <= ts < to}; and the versions
 * of every incident that any exported anomaly is a member of (or that the scope's nodes, devices or
 * racks label); anomalies and incident versions of an episode (fingerprint, starts_at) with a record
 * in the range follow it to its end, even past {@code to} (a resolution after a hold); dead letters
 * with {@code from <= ts < to}. A topic is raw when its schema has {@code agent_seq} (ARCHITECTURE.md),
 * derived otherwise. With a {@link KafkaExportSource}, each topic comes from Kafka when every partition
 * still retains the range's start (records as produced, with their schema ids), else from TimescaleDB;
 * the manifest and the log line say which.
 */
public final class BundleExporter {
  private static final int PROGRESS_EVERY = 50_000;

  /**
   * An export to do: range, scope, the incident it is cut for (or null), and the analytics and
   * correlator settings to embed (or null: none recorded).
   */
  public record Request(Instant from, Instant to, ExportScope scope, String incident, String analyticsConfig,
      String correlatorConfig) {}

  private final Connection c;
  private final KafkaExportSource kafka;
  private final PrintStream progress;

  /** An exporter reading TimescaleDB only. */
  public BundleExporter(Connection c, PrintStream progress) {
    this(c, null, progress);
  }

  /** An exporter reading {@code kafka} while it retains a topic's range (null: TimescaleDB only). */
  BundleExporter(Connection c, KafkaExportSource kafka, PrintStream progress) {
    this.c = c;
    this.kafka = kafka;
    this.progress = progress;
  }

  public Manifest export(Request req, Path out) throws SQLException, IOException {
    ScopeResolver.Resolved scope = new ScopeResolver(c).resolve(req.scope());
    RecordScope recordScope = new RecordScope(scope);
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false); // lets the driver stream rows with a fetch size
    Set<String> anomalyFps = new HashSet<>();
    Manifest m;
    try (BundleWriter w = BundleWriter.create(out, req.from(), req.to(), manifestScope(req.scope(), scope), req.incident())) {
      for (TableSpec spec : Tables.all().values()) {
        BundleRole role = roleOf(spec);
        Predicate<SpecificRecord> keep = role == BundleRole.ALERTS ? r -> inIncident((Alert) r, scope, anomalyFps, req.incident()) : null;
        String why = null;
        if (kafka != null) {
          KafkaExportSource.Outcome k = fromKafka(w, spec, role, req, r -> recordScope.matches(spec.topic(), r)
              && (keep == null || keep.test(r)), anomalyFps);
          if (k.served()) {
            progress.println("export topic=" + spec.topic() + " role=" + role.id() + " source=kafka records=" + k.records()
                + " kafka_topic=" + k.kafkaTopic() + " partitions=" + k.partitions() + " schema_ids=" + k.schemaIds()
                + (k.undecodable() > 0 ? " undecodable=" + k.undecodable() : ""));
            continue;
          }
          why = k.unavailable();
        }
        BundleWriter.TopicFile f = w.topic(spec.topic(), role, RecordSource.TIMESCALEDB, spec.keyField());
        if (role == BundleRole.STATE) {
          copy(f, spec, query(spec, scope, null, req.from()), null, null);
          copy(f, spec, query(spec, scope, req.from(), req.to()), null, null);
        } else {
          copy(f, spec, query(spec, scope, req.from(), req.to()), role == BundleRole.ANOMALIES ? anomalyFps : null, keep);
        }
        progress.println("export topic=" + spec.topic() + " role=" + role.id() + " source=timescaledb records=" + f.records()
            + (why == null ? "" : " kafka=\"" + why + "\""));
      }
      if (req.analyticsConfig() != null) {
        w.text(Manifest.ANALYTICS_CONFIG, BundleRole.CONFIG, req.analyticsConfig());
      }
      if (req.correlatorConfig() != null) {
        w.text(Manifest.CORRELATOR_CONFIG, BundleRole.CONFIG, req.correlatorConfig());
      }
      progress.println("export settings analytics=" + (req.analyticsConfig() != null ? Manifest.ANALYTICS_CONFIG : "none")
          + " correlator=" + (req.correlatorConfig() != null ? Manifest.CORRELATOR_CONFIG : "none"));
      m = w.finish();
      c.commit();
    } finally {
      c.setAutoCommit(auto);
    }
    progress.println("export done records=" + m.records() + " files=" + m.files().size() + " dir=" + out);
    return m;
  }

  /** The topic from Kafka, into a file opened on the first record (or at the end), when Kafka still has its range. */
  private KafkaExportSource.Outcome fromKafka(BundleWriter w, TableSpec spec, BundleRole role, Request req,
      Predicate<SpecificRecord> scope, Set<String> anomalyFps) throws IOException {
    KafkaExportSource.Mode mode = role == BundleRole.STATE ? KafkaExportSource.Mode.STATE
        : role == BundleRole.ANOMALIES || role == BundleRole.ALERTS ? KafkaExportSource.Mode.EPISODES
        : KafkaExportSource.Mode.RANGE;
    BundleWriter.TopicFile[] file = {null};
    KafkaExportSource.Outcome k = kafka.read(spec.topic(), mode, req.from(), req.to(), scope, r -> {
      try {
        if (file[0] == null) {
          file[0] = w.topic(spec.topic(), role, RecordSource.KAFKA, spec.keyField());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (role == BundleRole.ANOMALIES) {
        anomalyFps.add(((Anomaly) r.value()).getFingerprint());
      }
      file[0].append(r.value());
      if (file[0].records() % PROGRESS_EVERY == 0) {
        progress.println("export progress topic=" + spec.topic() + " records=" + file[0].records());
      }
    });
    if (k.served()) {
      if (file[0] == null) {
        file[0] = w.topic(spec.topic(), role, RecordSource.KAFKA, spec.keyField());
      }
      file[0].schemaIds(k.schemaIds());
    }
    return k;
  }

  private static Map<String, List<String>> manifestScope(ExportScope asked, ScopeResolver.Resolved r) {
    Map<String, List<String>> m = new java.util.LinkedHashMap<>(asked.asManifest());
    if (r.narrowed()) {
      m.put("resolved_node", List.copyOf(r.nodes()));
      m.put("resolved_device", List.copyOf(r.devices()));
    }
    return m;
  }

  /** The role of a stored topic in a bundle. */
  static BundleRole roleOf(TableSpec spec) {
    return switch (spec.topic()) {
      case Topics.ANOMALIES -> BundleRole.ANOMALIES;
      case Topics.ALERTS -> BundleRole.ALERTS;
      case Topics.DLQ -> BundleRole.DEAD_LETTERS;
      default -> spec.hasCurrent() ? BundleRole.STATE
          : Topics.require(spec.topic()).schema().getField("agent_seq") != null ? BundleRole.RAW : BundleRole.DERIVED;
    };
  }

  private static boolean inIncident(Alert a, ScopeResolver.Resolved s, Set<String> anomalyFps, String incident) {
    if (a.getFingerprint().equals(incident)) {
      return true;
    }
    if (incident != null) {
      return false;
    }
    if (!s.clusters().isEmpty() && !s.clusters().contains(a.getLabels().get("cluster"))) {
      return false;
    }
    if (!s.narrowed()) {
      return true;
    }
    return a.getMembers().stream().anyMatch(anomalyFps::contains) || labelled(a.getLabels(), s);
  }

  private static boolean labelled(Map<String, String> l, ScopeResolver.Resolved s) {
    return s.nodes().contains(l.get("node")) || s.devices().contains(l.get("device")) || s.devices().contains(l.get("cdu"))
        || s.devices().contains(l.get("pdu")) || s.racks().contains(l.get("rack"));
  }

  /** SELECT of one topic's rows: state as of {@code to} when {@code from} is null, else the rows in [from, to). */
  private Query query(TableSpec spec, ScopeResolver.Resolved s, Instant from, Instant to) throws SQLException {
    Schema schema = Topics.require(spec.topic()).schema();
    RowDecoder dec = new RowDecoder(schema, TableWriter.columns(c, spec.table()));
    List<Object> binds = new ArrayList<>();
    StringBuilder sql = new StringBuilder("SELECT ");
    if (from == null) {
      sql.append("DISTINCT ON (").append(String.join(", ", spec.currentKey())).append(") ");
    }
    sql.append(dec.selectList()).append(" FROM ").append(spec.table());
    boolean labelled = spec.topic().equals(Topics.ANOMALIES) || spec.topic().equals(Topics.ALERTS);
    if (from == null) {
      sql.append(" WHERE ts < ?");
      binds.add(Timestamp.from(to));
    } else if (labelled) {
      // an episode (fingerprint, starts_at) with a record in the range is followed to its end: its later
      // versions (a resolution after a hold, a re-send) are part of what the range produced
      sql.append(" WHERE ts >= ? AND (ts < ? OR (fingerprint, starts_at) IN (SELECT fingerprint, starts_at FROM ")
          .append(spec.table()).append(" WHERE ts >= ? AND ts < ?))");
      binds.add(Timestamp.from(from));
      binds.add(Timestamp.from(to));
      binds.add(Timestamp.from(from));
      binds.add(Timestamp.from(to));
    } else {
      sql.append(" WHERE ts >= ? AND ts < ?");
      binds.add(Timestamp.from(from));
      binds.add(Timestamp.from(to));
    }
    if (!s.clusters().isEmpty()) {
      sql.append(labelled ? " AND labels->>'cluster' = ANY(?)" : schema.getField("cluster") != null ? " AND cluster = ANY(?)" : "");
      if (labelled || schema.getField("cluster") != null) {
        binds.add(s.clusters());
      }
    }
    if (s.narrowed()) {
      if (spec.topic().equals(Topics.INVENTORY)) {
        sql.append(" AND (id = ANY(?) OR id = ANY(?))");
        binds.add(s.nodes());
        binds.add(s.devices());
      } else if (spec.topic().equals(Topics.ANOMALIES)) {
        sql.append(" AND (labels->>'node' = ANY(?) OR labels->>'device' = ANY(?) OR labels->>'cdu' = ANY(?)"
            + " OR labels->>'pdu' = ANY(?) OR labels->>'rack' = ANY(?))");
        binds.add(s.nodes());
        binds.add(s.devices());
        binds.add(s.devices());
        binds.add(s.devices());
        binds.add(s.racks());
      } else if (spec.topic().equals(Topics.DLQ)) {
        sql.append(" AND (key IS NULL OR key = ANY(?) OR key = ANY(?))");
        binds.add(s.nodes());
        binds.add(s.devices());
      } else if (!labelled && schema.getField("node") != null) {
        sql.append(" AND node = ANY(?)");
        binds.add(s.nodes());
      } else if (!labelled && schema.getField("device") != null) {
        sql.append(" AND device = ANY(?)");
        binds.add(s.devices());
      }
      // derived streams without a node or device (rail bandwidth, checkpoint SLO): every row of the clusters
    }
    if (from == null) {
      sql.append(" ORDER BY ").append(String.join(", ", spec.currentKey())).append(", ts DESC");
    } else {
      sql.append(" ORDER BY ts");
    }
    return new Query(sql.toString(), binds, dec);
  }

  private record Query(String sql, List<Object> binds, RowDecoder decoder) {}

  private void copy(BundleWriter.TopicFile f, TableSpec spec, Query q, Set<String> fingerprints,
      java.util.function.Predicate<SpecificRecord> keep) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(q.sql())) {
      for (int i = 0; i < q.binds().size(); i++) {
        Object b = q.binds().get(i);
        if (b instanceof Set<?> set) {
          p.setArray(i + 1, ScopeResolver.array(c, set));
        } else {
          p.setObject(i + 1, b);
        }
      }
      p.setFetchSize(5000);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          SpecificRecord r = q.decoder().decode(rs);
          if (keep != null && !keep.test(r)) {
            continue;
          }
          if (fingerprints != null) {
            fingerprints.add(((Anomaly) r).getFingerprint());
          }
          f.append(r);
          if (f.records() % PROGRESS_EVERY == 0) {
            progress.println("export progress topic=" + spec.topic() + " records=" + f.records());
          }
        }
      }
    }
  }
}
