package io.fleetscope.loadgen.bench.chaos;

/** A fault the chaos suite injects, and what it does. */
public enum FaultKind {
  BROKER("SIGKILL the Kafka broker, start it again"),
  TASKMANAGER("SIGKILL the Flink TaskManager, start a new one"),
  CORRELATOR("SIGKILL the alert correlator, start it again"),
  SINK("SIGKILL the TimescaleDB sink, start it again"),
  POSTGRES("SIGKILL the PostgreSQL postmaster, start it again (crash recovery)"),
  REGISTRY("SIGKILL the schema registry, start it again"),
  ALERTMANAGER("stop Alertmanager for a while, start it again");

  private final String description;

  FaultKind(String description) {
    this.description = description;
  }

  public String description() {
    return description;
  }

  /** The name used on the command line and in the report. */
  public String label() {
    return name().toLowerCase();
  }

  /** Parses a label ({@code broker}, {@code taskmanager}, ...), naming the known ones when it is none. */
  public static FaultKind parse(String label) {
    for (FaultKind k : values()) {
      if (k.label().equals(label.trim().toLowerCase())) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown fault '" + label + "'; known: "
        + java.util.Arrays.stream(values()).map(FaultKind::label).toList());
  }
}
