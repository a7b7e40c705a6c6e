package io.fleetscope.stack.services;

import java.nio.file.Path;

/**
 * Where {@link TestServices} gets its services from, chosen with {@code -Dfleetscope.services}:
 * {@code processes} (the default: child processes of the locally installed services, no Docker) or
 * {@code containers} (FleetScope's images through Testcontainers, on the host network). Either way
 * the tests get the same handles on real services at 127.0.0.1 ports.
 */
interface ServicesBackend {
  /** The system property that chooses the backend. */
  String PROPERTY = "fleetscope.services";

  /** A broker; its files (if any) under {@code dir}. */
  LocalKafka kafka(Path dir);

  /** A schema registry on {@code kafka}. */
  SchemaRegistryServer registry(LocalKafka kafka);

  /** A PostgreSQL+TimescaleDB test instance (trust on 127.0.0.1, fsync off). */
  LocalPostgres postgres(Path dir);

  /** An Alertmanager with this configuration file. */
  LocalAlertmanager alertmanager(Path configFile, Path dir);

  /** The backend that {@code -Dfleetscope.services} names (default: processes). */
  static ServicesBackend fromSystemProperties() {
    return named(System.getProperty(PROPERTY, "processes"));
  }

  /** The backend called {@code name}: processes (also blank) or containers. */
  static ServicesBackend named(String name) {
    return switch (name.trim()) {
      case "processes", "" -> new ProcessBackend();
      case "containers" -> new ContainerBackend(ContainerBackend.Config.fromSystemProperties());
      default -> throw new IllegalArgumentException("-D" + PROPERTY + " must be processes or containers, got '" + name + "'");
    };
  }
}
