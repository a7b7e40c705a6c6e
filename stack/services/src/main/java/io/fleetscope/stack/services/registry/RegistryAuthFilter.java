package io.fleetscope.stack.services.registry;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers 401 (with {@code WWW-Authenticate: Basic}, and the registry's JSON error body, error
 * code 40101 as Confluent's registry) to a request that {@link RegistryAuth} says needs credentials
 * and that has none or wrong ones; passes everything else on.
 */
public final class RegistryAuthFilter extends Filter {
  private static final Logger log = LoggerFactory.getLogger(RegistryAuthFilter.class);
  /** The error code in the 401 body. */
  public static final int UNAUTHORIZED = 40101;

  private final RegistryAuth auth;

  public RegistryAuthFilter(RegistryAuth auth) {
    this.auth = auth;
  }

  @Override
  public void doFilter(HttpExchange ex, Chain chain) throws IOException {
    String method = ex.getRequestMethod();
    if (!auth.required(method)) {
      chain.doFilter(ex);
      return;
    }
    String header = ex.getRequestHeaders().getFirst("Authorization");
    if (auth.users().orElseThrow().authenticate(header).isPresent()) {
      chain.doFilter(ex);
      return;
    }
    String reason = header == null ? "no-credentials" : "bad-credentials";
    log.info("registry request method={} path={} status=401 reason={}", method, ex.getRequestURI().getRawPath(), reason);
    byte[] body = ("{\"error_code\":" + UNAUTHORIZED + ",\"message\":\"Unauthorized: "
        + (header == null ? "this request needs HTTP basic auth" : "unknown user or wrong password") + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    ex.getRequestBody().close();
    ex.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"fleetscope-registry\", charset=\"UTF-8\"");
    ex.getResponseHeaders().set("Content-Type", RegistryHttpHandler.CONTENT_TYPE);
    ex.sendResponseHeaders(401, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public String description() {
    return "registry basic auth (" + auth.mode() + ")";
  }
}
