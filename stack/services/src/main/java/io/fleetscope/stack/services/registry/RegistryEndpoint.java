package io.fleetscope.stack.services.registry;

import com.sun.net.httpserver.HttpHandler;

/** Factory for the registry's HTTP handler (kept package-private in its implementation). */
public final class RegistryEndpoint {
  private RegistryEndpoint() {}

  public static HttpHandler handler(SchemaStore store) {
    return new RegistryHttpHandler(store);
  }

  /** The registry's error body for a 413: {@code {"error_code":413,"message":"..."}}. */
  public static String errorJson(String message) {
    return RegistryHttpHandler.errorJson(413, message);
  }
}
