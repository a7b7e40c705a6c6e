package io.fleetscope.agent.collectors.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetscope.agent.config.ConfigException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import java.net.Socket;

/**
 * Reads Redfish resources by {@code @odata.id} path. Shared by the PDU and CDU collectors.
 *
 * <p>{@code http://} and {@code https://} base URLs are fetched with basic auth (when a user is
 * given) and a per-request timeout; a {@code file:} base URL reads a DMTF mockup directory, where
 * each resource is {@code <path>/index.json}, so the collectors can be replayed on the published
 * mockups without a device.
 */
public final class RedfishClient {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The service answered 404 for a resource (or the mockup has no such file). */
  public static final class NotFoundException extends IOException {
    NotFoundException(String message) {
      super(message);
    }
  }

  private final String base;
  private final Path mockupDir;
  private final HttpClient http;
  private final String authHeader;
  private final Duration timeout;

  public RedfishClient(String baseUrl, String username, String password, boolean tlsInsecure, Duration timeout) {
    this.timeout = timeout;
    if (baseUrl.startsWith("file:")) {
      this.mockupDir = Path.of(URI.create(baseUrl));
      this.base = null;
      this.http = null;
      this.authHeader = null;
      return;
    }
    this.mockupDir = null;
    this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.http = CLIENTS.computeIfAbsent(new ClientKey(tlsInsecure, timeout), RedfishClient::newHttpClient);
    this.authHeader = username == null ? null
        : "Basic " + Base64.getEncoder().encodeToString(
            (username + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The HTTP clients, one per TLS mode and connect timeout, shared by every device of both facility
   * collectors: each java.net.http client keeps its own selector thread and connection pool, which
   * a client per device multiplied (20 devices: 20 threads polling their selectors).
   */
  private static final Map<ClientKey, HttpClient> CLIENTS = new ConcurrentHashMap<>();

  private record ClientKey(boolean tlsInsecure, Duration connectTimeout) {}

  private static HttpClient newHttpClient(ClientKey key) {
    HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(key.connectTimeout()).followRedirects(HttpClient.Redirect.NORMAL);
    if (key.tlsInsecure()) {
      b.sslContext(trustAll());
      SSLParameters params = new SSLParameters();
      params.setEndpointIdentificationAlgorithm(null);
      b.sslParameters(params);
    }
    return b.build();
  }

  /** Checks a configured base URL without touching the network. */
  public static void checkBaseUrl(String key, String url) throws ConfigException {
    if (url == null || url.isBlank()) {
      throw new ConfigException(key, "is required (e.g. https://10.1.2.3, or file:DIR for a Redfish mockup)");
    }
    if (!(url.startsWith("http://") || url.startsWith("https://") || url.startsWith("file:"))) {
      throw new ConfigException(key, "must start with http://, https:// or file:, got '" + url + "'");
    }
    try {
      URI u = URI.create(url);
      if (!url.startsWith("file:") && (u.getHost() == null || u.getHost().isEmpty())) {
        throw new ConfigException(key, "has no host: '" + url + "'");
      }
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, "is not a valid URL: " + e.getMessage());
    }
  }

  /**
   * GETs one resource.
   *
   * @param odataId an {@code @odata.id}, e.g. {@code /redfish/v1/PowerEquipment/RackPDUs}
   * @throws IOException on transport errors, non-2xx answers (with the status) and non-JSON bodies
   */
  public JsonNode get(String odataId) throws IOException, InterruptedException {
    if (!odataId.startsWith("/redfish/")) {
      throw new IOException("not a Redfish resource path: " + odataId);
    }
    if (mockupDir != null) {
      Path p = mockupDir.resolve(odataId.replaceFirst("^/redfish/v1/?", "")).resolve("index.json").normalize();
      if (!p.startsWith(mockupDir)) {
        throw new IOException("path escapes the mockup directory: " + odataId);
      }
      try {
        return JSON.readTree(Files.readAllBytes(p));
      } catch (NoSuchFileException e) {
        throw new NotFoundException("Redfish " + odataId + ": 404 (no " + p + ")");
      }
    }
    HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(base + odataId))
        .timeout(timeout).header("Accept", "application/json").header("OData-Version", "4.0").GET();
    if (authHeader != null) {
      rb.header("Authorization", authHeader);
    }
    HttpResponse<byte[]> resp = http.send(rb.build(), HttpResponse.BodyHandlers.ofByteArray());
    if (resp.statusCode() == 404) {
      throw new NotFoundException("Redfish GET " + odataId + " answered HTTP 404");
    }
    if (resp.statusCode() / 100 != 2) {
      throw new IOException("Redfish GET " + odataId + " answered HTTP " + resp.statusCode());
    }
    try {
      return JSON.readTree(resp.body());
    } catch (IOException e) {
      throw new IOException("Redfish GET " + odataId + ": body is not JSON: " + e.getMessage());
    }
  }

  /** The {@code @odata.id} of a link property ({@code {"@odata.id": ...}}), or null. */
  public static String link(JsonNode resource, String property) {
    JsonNode n = resource.path(property).path("@odata.id");
    return n.isTextual() ? n.asText() : null;
  }

  /** The member links of a collection resource. */
  public static java.util.List<String> members(JsonNode collection) {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (JsonNode m : collection.path("Members")) {
      JsonNode id = m.path("@odata.id");
      if (id.isTextual()) {
        out.add(id.asText());
      }
    }
    return out;
  }

  private static SSLContext trustAll() {
    try {
      SSLContext ctx = SSLContext.getInstance("TLS");
      // an X509ExtendedTrustManager, so that JSSE does not add its own host-name check on top
      ctx.init(null, new TrustManager[] {new X509ExtendedTrustManager() {
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType) {}
        @Override public void checkServerTrusted(X509Certificate[] chain, String authType) {}
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType, Socket s) {}
        @Override public void checkServerTrusted(X509Certificate[] chain, String authType, Socket s) {}
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}
        @Override public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}
        @Override public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
      }}, new SecureRandom());
      return ctx;
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("cannot build a TLS context", e);
    }
  }
}
