package io.fleetscope.sink.db;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the versioned SQL files of {@code db/migration/} (listed in order in
 * {@code db/migration/migrations.txt}) that are not yet in {@code schema_migrations}, each in its
 * own transaction, under an advisory lock so that several sinks starting together apply each one
 * once. A file named {@code V…__name.community.sql} or {@code .apache.sql} applies only to that
 * TimescaleDB edition. An applied file whose content changed is refused (checksum).
 */
public final class Migrator {
  private static final Logger log = LoggerFactory.getLogger(Migrator.class);
  private static final String DIR = "db/migration/";
  private static final Pattern NAME = Pattern.compile("V(\\d{3})__([a-z0-9_]+?)(?:\\.(apache|community))?\\.sql");
  private static final long LOCK_KEY = 0x464c454554L; // "FLEET"

  /** One migration file. */
  public record Migration(int version, String name, String edition, String file, String sql, String checksum) {
    boolean appliesTo(Edition e) {
      return edition == null || edition.equals(e.migrationSuffix());
    }
  }

  /** The migrations on the classpath, in version order. */
  public static List<Migration> load() {
    List<Migration> out = new ArrayList<>();
    String index = resource(DIR + "migrations.txt");
    int last = 0;
    for (String line : index.split("\n")) {
      String file = line.trim();
      if (file.isEmpty()) {
        continue;
      }
      Matcher m = NAME.matcher(file);
      if (!m.matches()) {
        throw new IllegalStateException("migration file name '" + file + "' does not match V###__name[.apache|.community].sql");
      }
      int v = Integer.parseInt(m.group(1));
      if (v <= last) {
        throw new IllegalStateException("migration " + file + " is out of order (after V" + last + ")");
      }
      last = v;
      String sql = resource(DIR + file);
      out.add(new Migration(v, m.group(2), m.group(3), file, sql, sha256(sql)));
    }
    return out;
  }

  /** Applies what is missing; returns the files applied now. */
  public static List<String> migrate(Connection c) throws SQLException {
    List<Migration> all = load();
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(true);
    List<String> applied = new ArrayList<>();
    try (Statement s = c.createStatement()) {
      s.execute("SELECT pg_advisory_lock(" + LOCK_KEY + ")");
      try {
        boolean exists;
        try (ResultSet rs = s.executeQuery("SELECT to_regclass('schema_migrations') IS NOT NULL")) {
          rs.next();
          exists = rs.getBoolean(1);
        }
        if (!exists) { // checked first: a writer without CREATE rights may start once the schema is migrated
          s.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, "
              + "file text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
        }
        Map<Integer, String> done = new LinkedHashMap<>();
        try (ResultSet rs = s.executeQuery("SELECT version, checksum FROM schema_migrations")) {
          while (rs.next()) {
            done.put(rs.getInt(1), rs.getString(2));
          }
        }
        Edition edition = null;
        for (Migration m : all) {
          String sum = done.get(m.version());
          if (sum != null) {
            if (!sum.equals(m.checksum())) {
              throw new IllegalStateException("migration " + m.file() + " was applied with different content (checksum "
                  + sum + ", file now " + m.checksum() + "): add a new migration instead of editing an applied one");
            }
            continue;
          }
          if (m.edition() != null) {
            if (edition == null) {
              edition = Edition.detect(c);
            }
            if (!m.appliesTo(edition)) {
              log.info("migration skipped file={} edition={}", m.file(), edition.migrationSuffix());
              continue;
            }
          }
          apply(c, m);
          applied.add(m.file());
        }
      } finally {
        s.execute("SELECT pg_advisory_unlock(" + LOCK_KEY + ")");
      }
    } finally {
      c.setAutoCommit(auto);
    }
    return applied;
  }

  private static void apply(Connection c, Migration m) throws SQLException {
    long t0 = System.nanoTime();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.execute(m.sql());
      try (PreparedStatement p = c.prepareStatement(
          "INSERT INTO schema_migrations (version, name, file, checksum) VALUES (?, ?, ?, ?)")) {
        p.setInt(1, m.version());
        p.setString(2, m.name());
        p.setString(3, m.file());
        p.setString(4, m.checksum());
        p.executeUpdate();
      }
      c.commit();
      log.info("migration applied file={} ms={}", m.file(), (System.nanoTime() - t0) / 1_000_000);
    } catch (SQLException e) {
      c.rollback();
      throw new SQLException("migration " + m.file() + " failed: " + e.getMessage(), e.getSQLState(), e);
    } finally {
      c.setAutoCommit(true);
    }
  }

  private static String resource(String path) {
    try (InputStream in = Migrator.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
