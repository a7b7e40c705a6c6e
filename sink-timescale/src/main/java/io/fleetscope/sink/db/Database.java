package io.fleetscope.sink.db;

import io.fleetscope.sink.SinkConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** Opens connections to TimescaleDB from the configuration (user, password, optional SET ROLE). */
public final class Database {
  private final String url;
  private final String user;
  private final String password;
  private final String role;

  public Database(String url, String user, String password, String role) {
    this.url = url;
    this.user = user;
    this.password = password == null ? "" : password;
    this.role = role == null ? "" : role;
  }

  public static Database from(SinkConfig c) {
    return new Database(c.string(SinkConfig.JDBC_URL), c.string(SinkConfig.JDBC_USER),
        c.string(SinkConfig.JDBC_PASSWORD), c.string(SinkConfig.DB_ROLE));
  }

  /**
   * The credential that applies the migrations: {@code jdbc.owner_user} and its password, or the
   * sink's own user when that setting is empty. Never SET ROLE.
   */
  public static Database owner(SinkConfig c) {
    String owner = c.string(SinkConfig.OWNER_USER);
    if (owner.isEmpty()) {
      return new Database(c.string(SinkConfig.JDBC_URL), c.string(SinkConfig.JDBC_USER), c.string(SinkConfig.JDBC_PASSWORD), "");
    }
    return new Database(c.string(SinkConfig.JDBC_URL), owner, c.string(SinkConfig.OWNER_PASSWORD), "");
  }

  public String user() {
    return user;
  }

  public String url() {
    return url;
  }

  public Connection open() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    if (!password.isEmpty()) {
      p.setProperty("password", password);
    }
    p.setProperty("ApplicationName", "fleetscope-sink");
    p.setProperty("connectTimeout", "5");
    p.setProperty("tcpKeepAlive", "true");
    Connection c = DriverManager.getConnection(url, p);
    if (!role.isEmpty()) {
      try (Statement s = c.createStatement()) {
        s.execute("SET ROLE " + quoteIdent(role));
      }
    }
    return c;
  }

  static String quoteIdent(String s) {
    return '"' + s.replace("\"", "\"\"") + '"';
  }
}
