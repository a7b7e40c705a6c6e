package io.fleetscope.streams;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** An {@link AlertSink} that records what it is asked to send and succeeds or fails as the test says. */
final class RecordingSink implements AlertSink {
  final List<List<OutboundAlert>> batches = new ArrayList<>();
  volatile boolean down;

  @Override
  public synchronized CompletableFuture<Void> send(List<OutboundAlert> alerts) {
    batches.add(List.copyOf(alerts));
    return down ? CompletableFuture.failedFuture(new java.net.ConnectException("Connection refused"))
        : CompletableFuture.completedFuture(null);
  }

  synchronized List<OutboundAlert> last() {
    return batches.get(batches.size() - 1);
  }

  @Override
  public String describe() {
    return "recording";
  }
}
