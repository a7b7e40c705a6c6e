package io.fleetscope.streams;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Where incidents are delivered. Sends must not block the caller; the future fails with the reason. */
public interface AlertSink extends AutoCloseable {
  CompletableFuture<Void> send(List<OutboundAlert> alerts);

  /** Short name for logs, e.g. {@code alertmanager=http://...}. */
  String describe();

  @Override
  default void close() {}

  /** Sends to every sink; succeeds when all succeed (a retry re-sends to all: delivery is at-least-once). */
  static AlertSink all(List<AlertSink> sinks) {
    if (sinks.size() == 1) {
      return sinks.get(0);
    }
    return new AlertSink() {
      @Override
      public CompletableFuture<Void> send(List<OutboundAlert> alerts) {
        return CompletableFuture.allOf(sinks.stream().map(s -> s.send(alerts)).toArray(CompletableFuture[]::new));
      }

      @Override
      public String describe() {
        return String.join(",", sinks.stream().map(AlertSink::describe).toList());
      }

      @Override
      public void close() {
        sinks.forEach(AlertSink::close);
      }
    };
  }
}
