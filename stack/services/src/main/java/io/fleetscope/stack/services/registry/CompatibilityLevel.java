package io.fleetscope.stack.services.registry;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityResult;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * Confluent's compatibility levels, checked with Avro's own {@link SchemaCompatibility}.
 * BACKWARD: the new schema reads data written with the previous one. FORWARD: the previous
 * schema reads data written with the new one. FULL: both. *_TRANSITIVE: against every live
 * version, not only the latest.
 */
public enum CompatibilityLevel {
  NONE(false, false, false),
  BACKWARD(true, false, false),
  BACKWARD_TRANSITIVE(true, false, true),
  FORWARD(false, true, false),
  FORWARD_TRANSITIVE(false, true, true),
  FULL(true, true, false),
  FULL_TRANSITIVE(true, true, true);

  private final boolean backward;
  private final boolean forward;
  private final boolean transitive;

  CompatibilityLevel(boolean backward, boolean forward, boolean transitive) {
    this.backward = backward;
    this.forward = forward;
    this.transitive = transitive;
  }

  public boolean transitive() {
    return transitive;
  }

  /** Parses a level name (case-insensitive); 422/42203 when unknown. */
  public static CompatibilityLevel parse(String s) {
    if (s != null) {
      for (CompatibilityLevel l : values()) {
        if (l.name().equalsIgnoreCase(s.trim())) {
          return l;
        }
      }
    }
    throw RegistryException.invalidCompatibilityLevel(s);
  }

  /**
   * Checks {@code candidate} against the previous versions it must be compatible with (oldest
   * first); returns the reasons it is not, empty when compatible. Non-transitive levels only look
   * at the last element.
   */
  public List<String> check(Schema candidate, List<Schema> previous) {
    List<String> reasons = new ArrayList<>();
    if (this == NONE || previous.isEmpty()) {
      return reasons;
    }
    List<Schema> against = transitive ? previous : List.of(previous.get(previous.size() - 1));
    for (Schema old : against) {
      if (backward) {
        reasons.addAll(messages("BACKWARD", SchemaCompatibility.checkReaderWriterCompatibility(candidate, old).getResult()));
      }
      if (forward) {
        reasons.addAll(messages("FORWARD", SchemaCompatibility.checkReaderWriterCompatibility(old, candidate).getResult()));
      }
    }
    return reasons;
  }

  private static List<String> messages(String direction, SchemaCompatibilityResult r) {
    List<String> out = new ArrayList<>();
    if (r.getCompatibility() == SchemaCompatibilityType.COMPATIBLE) {
      return out;
    }
    r.getIncompatibilities().forEach(i -> out.add("{direction:" + direction + ", type:" + i.getType()
        + ", location:" + i.getLocation() + ", message:" + i.getMessage() + "}"));
    if (out.isEmpty()) {
      out.add("{direction:" + direction + ", type:" + r.getCompatibility() + "}");
    }
    return out;
  }
}
