package io.fleetscope.stack.services.registry;

/** An error answered to a registry client, with Confluent's HTTP status and error code. */
public final class RegistryException extends RuntimeException {
  private final int httpStatus;
  private final int errorCode;

  public RegistryException(int httpStatus, int errorCode, String message) {
    super(message);
    this.httpStatus = httpStatus;
    this.errorCode = errorCode;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public int errorCode() {
    return errorCode;
  }

  public static RegistryException subjectNotFound(String subject) {
    return new RegistryException(404, 40401, "Subject '" + subject + "' not found.");
  }

  public static RegistryException versionNotFound(String subject, Object version) {
    return new RegistryException(404, 40402, "Version " + version + " not found for subject '" + subject + "'.");
  }

  public static RegistryException schemaNotFound(String what) {
    return new RegistryException(404, 40403, "Schema " + what + " not found");
  }

  public static RegistryException subjectLevelConfigNotFound(String subject) {
    return new RegistryException(404, 40408,
        "Subject '" + subject + "' does not have subject-level compatibility configured");
  }

  public static RegistryException invalidSchema(String reason) {
    return new RegistryException(422, 42201, "Invalid schema: " + reason);
  }

  public static RegistryException invalidVersion(String version) {
    return new RegistryException(422, 42202,
        "The specified version '" + version + "' is not a valid version id. Allowed values are between "
            + "[1, 2^31-1] and the string \"latest\"");
  }

  public static RegistryException invalidCompatibilityLevel(String level) {
    return new RegistryException(422, 42203, "Invalid compatibility level: " + level
        + ". Valid values are " + java.util.Arrays.toString(CompatibilityLevel.values()));
  }

  public static RegistryException incompatible(String subject, java.util.List<String> reasons) {
    return new RegistryException(409, 409, "Schema being registered is incompatible with an earlier schema for subject \""
        + subject + "\", details: " + reasons);
  }

  public static RegistryException storeError(String reason) {
    return new RegistryException(500, 50001, "Error in the backend datastore: " + reason);
  }
}
