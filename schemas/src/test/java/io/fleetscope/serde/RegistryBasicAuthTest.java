package io.fleetscope.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What our registry client sends on the wire: basic auth from the config, from the URL, or none. */
class RegistryBasicAuthTest {
  private HttpServer server;
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private String url;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    server.createContext("/", ex -> {
      String auth = ex.getRequestHeaders().getFirst("Authorization");
      authorizations.add(auth == null ? "(none)" : auth);
      ex.getRequestBody().readAllBytes();
      boolean ok = auth != null && auth.equals(basic("writer:pa:ss"));
      byte[] body = (ok ? "{\"id\":7}" : "{\"error_code\":40101,\"message\":\"Unauthorized\"}").getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(ok ? 200 : 401, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private static String basic(String userInfo) {
    return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
  }

  private static final Schema SCHEMA = SchemaBuilder.record("R").fields().requiredInt("a").endRecord();

  @Test
  void sendsTheConfiguredUserInfo() {
    assertThat(new RestSchemaRegistryClient(url, "writer:pa:ss").register("s", SCHEMA)).isEqualTo(7);
    assertThat(authorizations).containsExactly(basic("writer:pa:ss"));
  }

  @Test
  void sendsTheUserInfoOfTheUrlAndNeverShowsIt() {
    RestSchemaRegistryClient c = new RestSchemaRegistryClient(url.replace("http://", "http://writer:pa%3Ass@") + "/");
    assertThat(c.register("s", SCHEMA)).isEqualTo(7);
    assertThat(authorizations).containsExactly(basic("writer:pa:ss"));
    assertThat(c.baseUrl()).isEqualTo(url);
  }

  @Test
  void withoutCredentialsTheRefusalIsFinalAndNamesTheStatus() {
    RestSchemaRegistryClient c = new RestSchemaRegistryClient(url, null, 3, Duration.ofSeconds(5));
    assertThatThrownBy(() -> c.register("s", SCHEMA)).isInstanceOfSatisfying(RegistryException.class,
        e -> assertThat(e.httpStatus()).isEqualTo(401)).hasMessageContaining("http=401").hasMessageContaining("40101");
    assertThat(authorizations).containsExactly("(none)"); // a 401 is not retried
  }

  @Test
  void anUnreachableRegistryIsNamedWithoutItsPassword() {
    server.stop(0);
    RestSchemaRegistryClient c = new RestSchemaRegistryClient(url.replace("http://", "http://writer:topsecret@"), null, 1,
        Duration.ofSeconds(2));
    assertThatThrownBy(() -> c.register("s", SCHEMA)).hasMessageContaining(url).hasMessageNotContaining("topsecret");
  }

  @Test
  void theSerdesTakeConfluentsKeys() {
    AvroSerializer<org.apache.avro.specific.SpecificRecord> s = new AvroSerializer<>();
    s.configure(Map.of(SerdeConfig.REGISTRY_URL, url, "basic.auth.credentials.source", "USER_INFO",
        "basic.auth.user.info", "writer:pa:ss"), false);
    assertThat(SerdeConfig.registryUserInfo(Map.of("basic.auth.credentials.source", "USER_INFO",
        "basic.auth.user.info", "writer:pa:ss"))).isEqualTo("writer:pa:ss");
    assertThat(SerdeConfig.registryUserInfo(Map.of("schema.registry.basic.auth.user.info", "a:b"))).isEqualTo("a:b");
    assertThat(SerdeConfig.registryUserInfo(Map.of("basic.auth.credentials.source", "URL",
        "basic.auth.user.info", "a:b"))).isNull();
  }

  @Test
  void splitsUserInfoFromTheUrl() {
    assertThat(RegistryUrl.parse("https://u:p@reg.example:8081/")).isEqualTo(new RegistryUrl("https://reg.example:8081", "u:p"));
    assertThat(RegistryUrl.parse("http://127.0.0.1:18081")).isEqualTo(new RegistryUrl("http://127.0.0.1:18081", null));
    assertThat(RegistryUrl.parse("http://u:p@h:1").toString()).isEqualTo("http://h:1");
    assertThat(RegistryUrl.basicAuthorization(null)).isNull();
  }
}
