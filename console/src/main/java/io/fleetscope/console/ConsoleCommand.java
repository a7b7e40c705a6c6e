package io.fleetscope.console;

import io.fleetscope.schemas.cli.HelpOption;
import io.fleetscope.schemas.cli.JdbcOptions;
import io.fleetscope.schemas.cli.ListenAddress;
import io.fleetscope.schemas.cli.LocalEndpoints;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The console's command line: {@code --http-port N --jdbc URL --jdbc-user U --incidents-url URL}. */
@Command(name = "console", sortOptions = false,
    description = "The console: a web page and a JSON API (on 127.0.0.1 unless --http-address) over TimescaleDB and the correlator's incidents.")
final class ConsoleCommand implements Callable<Integer> {
  @Mixin HelpOption help;

  @Option(names = "--http-port", paramLabel = "PORT", description = "port; 0 picks a free one (default: "
      + LocalEndpoints.CONSOLE_PORT + ")")
  int httpPort = LocalEndpoints.CONSOLE_PORT;

  @Option(names = "--http-address", paramLabel = "ADDRESS", description = "IP address to listen on (default: "
      + ListenAddress.LOOPBACK + ", this machine only)")
  String httpAddress = ListenAddress.LOOPBACK;

  @Mixin JdbcOptions jdbc;

  @Option(names = "--incidents-url", paramLabel = "URL", description = "the correlator's active incidents, e.g."
      + " http://127.0.0.1:18083/api/v1/incidents (default: none; the alerts table instead)")
  String incidentsUrl = "";

  @Option(names = "--max-body-bytes", paramLabel = "N", description = "refuse a request body over N bytes with 413"
      + " (default: " + ConsoleServer.DEFAULT_MAX_BODY_BYTES + "; the console serves GET only)")
  long maxBodyBytes = ConsoleServer.DEFAULT_MAX_BODY_BYTES;

  /** The settings these flags describe, with {@code env} supplying the database defaults. */
  ConsoleConfig config(Map<String, String> env) {
    return ConsoleConfig.defaults().withPort(httpPort).withAddress(httpAddress).withJdbc(jdbc.url(env), jdbc.user(env), jdbc.password(env))
        .withIncidentsUrl(incidentsUrl);
  }

  @Override
  public Integer call() throws Exception {
    ConsoleServer s;
    try {
      s = new ConsoleServer(config(System.getenv()), maxBodyBytes).start();
    } catch (ConsoleServer.PortInUseException e) {
      ConsoleServer.log.error("console start failed port={} reason=\"{}\"", e.port, e.getMessage());
      return 2;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(s::close));
    Thread.currentThread().join();
    return 0;
  }
}
