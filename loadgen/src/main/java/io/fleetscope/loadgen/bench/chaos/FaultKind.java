package io.fleetscope.loadgen.bench.chaos;

/** A fault the chaos suite injects, and what it does. */
public enum FaultKind {
  BROKER("SIGKILL the Kafka broker, start it again"),
  TASKMANAGER("SIGKILL the Flink TaskManager, start a new one"),
  CORRELATOR("SIGKILL the alert correlator, start it again"),
  SINK("SIGKILL the TimescaleDB sink, start it again"),
  POSTGRES("SIGKILL the PostgreSQL postmaster, start it again (crash recovery)"),
  REGISTRY("SIGKILL the schema registry, start it again"),
  ALERTMANAGER("stop Alertmanager for a while, start it again"),
  AGENT("SIGKILL the node agent while the broker is down (unsent records in its spool), start it again on the same spool"),
  SPOOL_FULL("fill the small filesystem of the agent's spool while the broker is down, then let the broker come back");

  private final String description;

  FaultKind(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }

  /** The name used on the command line and in the report ({@code spool-full} for SPOOL_FULL). */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** Whether the fault needs the real node agent that runs beside the simulated fleet. */
  public boolean needsAgent() {
    return this == AGENT || this == SPOOL_FULL;
  }

  /** Parses a label ({@code broker}, {@code taskmanager}, ...), naming the known ones when it is none. */
  public static FaultKind parse(String label) {
    for (FaultKind k : values()) {
      if (k.label().equals(label.trim().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown fault '" + label + "'; known: "
        + java.util.Arrays.stream(values()).map(FaultKind::label).toList());
  }
}
