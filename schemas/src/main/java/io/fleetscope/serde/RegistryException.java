package io.fleetscope.serde;

/**
 * A schema-registry request that failed, with the HTTP status and the Confluent error code
 * ({@code 40401} subject not found, {@code 40403} schema not found, {@code 409} incompatible,
 * {@code 42201} invalid schema, ...). Status 0 means the registry could not be reached.
 */
public class RegistryException extends RuntimeException {
  public static final int UNREACHABLE = 0;

  private final int httpStatus;
  private final int errorCode;

  public RegistryException(int httpStatus, int errorCode, String message) {
    this(httpStatus, errorCode, message, null);
  }

  public RegistryException(int httpStatus, int errorCode, String message, Throwable cause) {
    super(message, cause);
    this.httpStatus = httpStatus;
    this.errorCode = errorCode;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public int errorCode() {
    return errorCode;
  }

  public boolean isNotFound() {
    return httpStatus == 404;
  }

  public boolean isIncompatible() {
    return httpStatus == 409;
  }

  public boolean isUnreachable() {
    return httpStatus == UNREACHABLE;
  }

  /**
   * The registry could not answer the question (unreachable, 5xx, request timeout 408, throttled
   * 429): asking again later may succeed, so a record waiting on it is not at fault. Every other
   * answer (404 not found, 422 invalid, ...) is final.
   */
  public boolean isTransient() {
    return httpStatus == UNREACHABLE || httpStatus >= 500 || httpStatus == 408 || httpStatus == 429;
  }
}
