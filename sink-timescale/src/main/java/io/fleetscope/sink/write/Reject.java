package io.fleetscope.sink.write;

/** A record the sink cannot store, and why. */
public record Reject(SinkRecord record, String reason, String errorClass) {
  public static Reject of(SinkRecord r, Throwable e) {
    String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new Reject(r, msg.lines().findFirst().orElse(msg), e.getClass().getName());
  }
}
