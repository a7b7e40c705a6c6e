package io.fleetscope.stack.services.registry;

import com.sun.net.httpserver.HttpHandler;

/** Factory for the registry's HTTP handler (kept package-private in its implementation). */
public final class RegistryEndpoint {
  private RegistryEndpoint() {}

  public static HttpHandler handler(SchemaStore store) {
    return new RegistryHttpHandler(store);
  }
}
