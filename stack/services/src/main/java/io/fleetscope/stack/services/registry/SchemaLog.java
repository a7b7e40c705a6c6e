package io.fleetscope.stack.services.registry;

import java.util.function.BiConsumer;

/**
 * Where the registry keeps its state: an append-only, keyed log (a compacted Kafka topic in
 * production). Keys and values are the JSON documents described in {@link SchemaStore}.
 */
public interface SchemaLog extends AutoCloseable {
  /** Calls {@code apply(key, value)} for every record from the beginning (value null: tombstone). */
  void replay(BiConsumer<String, String> apply);

  /** Appends one record and returns once it is durably stored; throws on failure. */
  void append(String key, String value);

  @Override
  void close();
}
