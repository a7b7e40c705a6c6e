package io.fleetscope.schemas.bundle;

/** A bundle that cannot be used: the message names the file and what is wrong with it. */
public final class BadBundleException extends RuntimeException {
  private final String file;

  public BadBundleException(String file, String reason) {
    super("bad bundle file " + file + ": " + reason);
    this.file = file;
  }

  /** The file of the bundle (relative to its directory) that was refused. */
  public String file() {
    return file;
  }
}
