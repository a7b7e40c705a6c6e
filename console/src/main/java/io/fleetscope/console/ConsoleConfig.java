package io.fleetscope.console;

import io.fleetscope.schemas.cli.ListenAddress;
import io.fleetscope.schemas.cli.LocalEndpoints;
import java.time.Duration;

/**
 * Console settings.
 *
 * @param port HTTP port (default 18080; 0 picks a free port)
 * @param jdbcUrl TimescaleDB to read (default jdbc:postgresql://127.0.0.1:15432/fleetscope)
 * @param dbUser database user (default fleetscope_console, a member of the read-only group role fleetscope_reader)
 * @param dbPassword the user's password (default empty: none)
 * @param incidentsUrl the correlator's active-incident endpoint (e.g. http://127.0.0.1:18083/api/v1/incidents);
 *     when empty or unreachable the console derives active incidents from the alerts table
 * @param staleAfter a node that has sent nothing for this long counts as not reporting (default 60 s)
 * @param address the address it listens on (default 127.0.0.1; an IP literal, see {@link ListenAddress})
 */
public record ConsoleConfig(int port, String jdbcUrl, String dbUser, String dbPassword, String incidentsUrl,
    Duration staleAfter, String address) {
  public static ConsoleConfig defaults() {
    return new ConsoleConfig(LocalEndpoints.CONSOLE_PORT, LocalEndpoints.JDBC_URL, LocalEndpoints.JDBC_READER_USER, "", "",
        Duration.ofSeconds(60), ListenAddress.LOOPBACK);
  }

  public ConsoleConfig withPort(int p) {
    return new ConsoleConfig(p, jdbcUrl, dbUser, dbPassword, incidentsUrl, staleAfter, address);
  }

  public ConsoleConfig withJdbc(String url, String user) {
    return withJdbc(url, user, dbPassword);
  }

  public ConsoleConfig withJdbc(String url, String user, String password) {
    return new ConsoleConfig(port, url, user, password, incidentsUrl, staleAfter, address);
  }

  public ConsoleConfig withAddress(String a) {
    ListenAddress.parse("console --http-address", a);
    return new ConsoleConfig(port, jdbcUrl, dbUser, dbPassword, incidentsUrl, staleAfter, a.trim());
  }

  public ConsoleConfig withIncidentsUrl(String url) {
    return new ConsoleConfig(port, jdbcUrl, dbUser, dbPassword, url, staleAfter, address);
  }
}
