package io.fleetscope.stack.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A bare HTTP client for registry tests: status code and parsed JSON body. */
final class RegistryHttp {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  record Reply(int status, JsonNode body, String contentType) {
    int errorCode() {
      return body.path("error_code").asInt(-1);
    }
  }

  private final String base;

  RegistryHttp(String base) {
    this.base = base;
  }

  Reply get(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
  }

  Reply delete(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE());
  }

  Reply post(String path, String json) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/vnd.schemaregistry.v1+json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  Reply put(String path, String json) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(json)));
  }

  /** {"schema": "<schema text>"} */
  static String schemaBody(String schemaText) {
    return JSON.createObjectNode().put("schema", schemaText).toString();
  }

  private static Reply send(HttpRequest.Builder b) {
    try {
      HttpResponse<String> r = HTTP.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      String body = r.body();
      JsonNode node = body.isEmpty() ? JSON.nullNode() : parseOrText(body);
      return new Reply(r.statusCode(), node, r.headers().firstValue("Content-Type").orElse(""));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode parseOrText(String body) {
    try {
      return JSON.readTree(body);
    } catch (Exception e) {
      return JSON.getNodeFactory().textNode(body);
    }
  }
}
