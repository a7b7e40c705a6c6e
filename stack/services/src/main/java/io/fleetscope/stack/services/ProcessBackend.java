package io.fleetscope.stack.services;

import java.nio.file.Path;

/** The default backend: each service a child process of the locally installed software. */
final class ProcessBackend implements ServicesBackend {
  @Override
  public LocalKafka kafka(Path dir) {
    return LocalKafka.start(LocalKafka.Config.defaults(dir));
  }

  @Override
  public SchemaRegistryServer registry(LocalKafka kafka) {
    return SchemaRegistryServer.start(kafka.bootstrapServers(), 0);
  }

  @Override
  public LocalPostgres postgres(Path dir) {
    return LocalPostgres.start(LocalPostgres.Config.forTests(dir));
  }

  @Override
  public LocalAlertmanager alertmanager(Path configFile, Path dir) {
    return LocalAlertmanager.start(LocalAlertmanager.Config.defaults(configFile, dir));
  }

  @Override
  public String toString() {
    return "processes";
  }
}
