package io.fleetscope.stack.services.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/** A SchemaLog kept in a list, for unit tests of the store's rules (the ITs use the Kafka topic). */
final class InMemorySchemaLog implements SchemaLog {
  final List<String[]> records = new ArrayList<>();
  boolean failWrites;
  /** The write lands but the caller is told it failed (a lost acknowledgement). */
  boolean loseAcks;

  @Override
  public void replay(BiConsumer<String, String> apply) {
    records.forEach(r -> apply.accept(r[0], r[1]));
  }

  @Override
  public void append(String key, String value) {
    if (failWrites) {
      throw new IllegalStateException("broker unavailable");
    }
    records.add(new String[] {key, value});
    if (loseAcks) {
      throw new IllegalStateException("timed out waiting for the acknowledgement");
    }
  }

  @Override
  public void close() {}
}
