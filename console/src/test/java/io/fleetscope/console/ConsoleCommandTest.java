package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ConsoleCommandTest {

  @Test
  void flagsThenTheEnvironmentThenTheLocalStack() {
    ConsoleCommand defaults = new ConsoleCommand();
    new CommandLine(defaults).parseArgs();
    assertThat(defaults.config(Map.of())).isEqualTo(ConsoleConfig.defaults());

    ConsoleCommand flags = new ConsoleCommand();
    new CommandLine(flags).parseArgs("--http-port", "0", "--jdbc", "jdbc:postgresql://h/db", "--jdbc-user", "reader",
        "--incidents-url", "http://127.0.0.1:1/api/v1/incidents");
    ConsoleConfig c = flags.config(Map.of("FLEETSCOPE_JDBC_URL", "jdbc:postgresql://env/db", "FLEETSCOPE_JDBC_PASSWORD", "pw"));
    assertThat(c.port()).isZero();
    assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://h/db");
    assertThat(c.dbUser()).isEqualTo("reader");
    assertThat(c.dbPassword()).isEqualTo("pw");
    assertThat(c.incidentsUrl()).isEqualTo("http://127.0.0.1:1/api/v1/incidents");
  }

  @Test
  void itListensOnLoopbackUnlessAnAddressIsGiven() {
    ConsoleCommand defaults = new ConsoleCommand();
    new CommandLine(defaults).parseArgs();
    assertThat(defaults.config(Map.of()).address()).isEqualTo("127.0.0.1");

    ConsoleCommand given = new ConsoleCommand();
    new CommandLine(given).parseArgs("--http-address", "10.1.2.3");
    assertThat(given.config(Map.of()).address()).isEqualTo("10.1.2.3");

    ConsoleCommand named = new ConsoleCommand();
    new CommandLine(named).parseArgs("--http-address", "localhost");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> named.config(Map.of()))
        .hasMessage("console --http-address must be an IP address such as 127.0.0.1, got 'localhost'");
  }
}
