package io.fleetscope.serde;

/**
 * A wait for the schema registry ended without an answer because the caller is shutting down (its
 * thread was interrupted, or the {@link RegistryWait} was cancelled). Not a verdict on the record:
 * callers must let it propagate (the record is read again after the restart), never dead-letter it.
 */
public final class RegistryWaitAbortedException extends RuntimeException {
  public RegistryWaitAbortedException(String message, Throwable cause) {
    super(message, cause);
  }
}
