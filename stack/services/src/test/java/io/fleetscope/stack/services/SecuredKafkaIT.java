package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.schemas.kafka.KafkaClientConfig;
import io.fleetscope.serde.RegistryException;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.registry.RegistryAuth;
import io.fleetscope.stack.services.registry.RegistryUsers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local broker with its SASL_SSL listener and ACLs: the registry keeps its schemas in Kafka
 * over SASL_SSL as its own user and takes HTTP basic auth for writes; a user without ACLs and a
 * wrong password are refused with a clear error; no password shows in any log.
 */
class SecuredKafkaIT {
  @TempDir static Path tmp;
  private static LocalKafka kafka;
  private static final String REGISTRY_KAFKA_PASSWORD = TestCertificates.randomPassword();
  private static final String NOBODY_PASSWORD = TestCertificates.randomPassword();
  private static final String REGISTRY_WRITER_PASSWORD = TestCertificates.randomPassword();
  private static final ByteArrayOutputStream ownLog = new ByteArrayOutputStream();
  private static PrintStream originalErr;

  @BeforeAll
  static void start() {
    originalErr = System.err;
    System.setErr(new PrintStream(new TeeStream(originalErr, ownLog), true, StandardCharsets.UTF_8));
    kafka = LocalKafka.start(LocalKafka.Config.defaults(tmp.resolve("kafka"))
        .withSecurity(LocalKafka.Security.create(tmp.resolve("tls"))));
    kafka.addScramUser("registry", REGISTRY_KAFKA_PASSWORD);
    kafka.addScramUser("nobody", NOBODY_PASSWORD);
    kafka.allow("registry", ResourceType.TOPIC, "_schemas_secured", PatternType.LITERAL,
        AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE);
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
    System.setErr(originalErr);
  }

  private static KafkaClientConfig clientOf(String user, String password, String registryUserInfo) throws Exception {
    Path f = Files.createTempFile(tmp, user, ".properties");
    StringBuilder b = new StringBuilder();
    kafka.clientSecurity(user, password).forEach((k, v) -> b.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
    if (registryUserInfo != null) {
      b.append("basic.auth.credentials.source=USER_INFO\nbasic.auth.user.info=").append(registryUserInfo).append('\n');
    }
    Files.writeString(f, b.toString());
    return KafkaClientConfig.load(f);
  }

  @Test
  void registryKeepsItsLogOverSaslSslAndTakesBasicAuthForWrites() throws Exception {
    KafkaClientConfig registryClient = clientOf("registry", REGISTRY_KAFKA_PASSWORD, null);
    RegistryAuth auth = RegistryAuth.basic(RegistryUsers.of(Map.of("writer", REGISTRY_WRITER_PASSWORD)), false);
    Schema schema = SchemaBuilder.record("Secured").namespace("it").fields().requiredLong("ts").endRecord();
    int id;
    try (SchemaRegistryServer registry = SchemaRegistryServer.start(kafka.bootstrapServers(), registryClient, 0,
        "_schemas_secured", auth)) {
      RestSchemaRegistryClient anonymous = new RestSchemaRegistryClient(registry.url(), null, 1, Duration.ofSeconds(10));
      assertThatThrownBy(() -> anonymous.register("secured-value", schema))
          .isInstanceOfSatisfying(RegistryException.class, e -> assertThat(e.httpStatus()).isEqualTo(401))
          .hasMessageContaining("40101");
      RestSchemaRegistryClient wrong = new RestSchemaRegistryClient(registry.url(), "writer:wrong", 1, Duration.ofSeconds(10));
      assertThatThrownBy(() -> wrong.register("secured-value", schema)).hasMessageContaining("http=401");

      KafkaClientConfig writer = clientOf("registry", REGISTRY_KAFKA_PASSWORD, "writer:" + REGISTRY_WRITER_PASSWORD);
      id = writer.registryClient(registry.url()).register("secured-value", schema);
      // reads stay open
      assertThat(anonymous.getById(id)).isEqualTo(schema);
      // credentials in the URL, as Confluent's basic.auth.credentials.source=URL
      String withUserInfo = registry.url().replace("http://", "http://writer:" + REGISTRY_WRITER_PASSWORD + "@");
      assertThat(new RestSchemaRegistryClient(withUserInfo).register("secured-value", schema)).isEqualTo(id);
    }
    // restarted, it reads its schemas back from the secured topic
    try (SchemaRegistryServer again = SchemaRegistryServer.start(kafka.bootstrapServers(), registryClient, 0,
        "_schemas_secured", auth)) {
      assertThat(new RestSchemaRegistryClient(again.url()).getById(id)).isEqualTo(schema);
    }
  }

  private static java.net.http.HttpResponse<String> http(String method, String url, String body, String userInfo)
      throws Exception {
    var b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
        .method(method, body == null ? java.net.http.HttpRequest.BodyPublishers.noBody()
            : java.net.http.HttpRequest.BodyPublishers.ofString(body));
    if (userInfo != null) {
      b.header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)));
    }
    return java.net.http.HttpClient.newHttpClient().send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void plainHttpWritesAndConfigChangesNeedCredentials() throws Exception {
    KafkaClientConfig registryClient = clientOf("registry", REGISTRY_KAFKA_PASSWORD, null);
    String writer = "writer:" + REGISTRY_WRITER_PASSWORD;
    String schema = "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"H\\\",\\\"fields\\\":[]}\"}";
    try (SchemaRegistryServer r = SchemaRegistryServer.start(kafka.bootstrapServers(), registryClient, 0,
        "_schemas_secured", RegistryAuth.basic(RegistryUsers.of(Map.of("writer", REGISTRY_WRITER_PASSWORD)), false))) {
      String u = r.url();
      var refused = http("PUT", u + "/config", "{\"compatibility\":\"NONE\"}", null);
      assertThat(refused.statusCode()).isEqualTo(401);
      assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
      assertThat(refused.body()).contains("\"error_code\":40101");
      assertThat(http("PUT", u + "/config", "{\"compatibility\":\"NONE\"}", "writer:wrong").statusCode()).isEqualTo(401);
      assertThat(http("PUT", u + "/config", "{\"compatibility\":\"NONE\"}", "nosuchuser:x").statusCode()).isEqualTo(401);
      assertThat(http("GET", u + "/config", null, null).body()).contains("BACKWARD");
      assertThat(http("POST", u + "/subjects/h-value/versions", schema, null).statusCode()).isEqualTo(401);
      assertThat(http("POST", u + "/subjects/h-value/versions", schema, writer).statusCode()).isEqualTo(200);
      assertThat(http("DELETE", u + "/subjects/h-value", null, null).statusCode()).isEqualTo(401);
      assertThat(http("GET", u + "/subjects", null, null).body()).contains("h-value");
      assertThat(http("DELETE", u + "/subjects/h-value", null, writer).statusCode()).isEqualTo(200);
      assertThat(http("PUT", u + "/config", "{\"compatibility\":\"NONE\"}", writer).statusCode()).isEqualTo(200);
      assertThat(http("DELETE", u + "/config", null, writer).statusCode()).isEqualTo(200);
    }
    try (SchemaRegistryServer r = SchemaRegistryServer.start(kafka.bootstrapServers(), registryClient, 0,
        "_schemas_secured", RegistryAuth.basic(RegistryUsers.of(Map.of("writer", REGISTRY_WRITER_PASSWORD)), true))) {
      assertThat(http("GET", r.url() + "/subjects", null, null).statusCode()).isEqualTo(401);
      assertThat(http("GET", r.url() + "/subjects", null, writer).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aUserWithoutAclsIsRefusedNamingTheTopic() throws Exception {
    KafkaClientConfig nobody = clientOf("nobody", NOBODY_PASSWORD, null);
    Properties p = nobody.applyTo(new Properties());
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>("_schemas_secured", "k", "v")).get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(TopicAuthorizationException.class)
          .hasMessageContaining("Not authorized to access topics: [_schemas_secured]");
    }
    assertThatThrownBy(() -> new io.fleetscope.stack.services.registry.KafkaSchemaLog(kafka.bootstrapServers(), nobody,
        "_schemas_nobody"))
        .hasMessageContaining("registry: cannot")
        .hasMessageContaining("uthoriz");
  }

  @Test
  void aWrongPasswordIsRefusedAsAnAuthenticationFailure() throws Exception {
    KafkaClientConfig wrong = clientOf("registry", "not-the-password", null);
    Properties p = wrong.applyTo(new Properties());
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>("_schemas_secured", "k", "v")).get(30, TimeUnit.SECONDS))
          .hasRootCauseInstanceOf(SaslAuthenticationException.class)
          .hasMessageContaining("Authentication failed");
    }
  }

  @Test
  void noLogShowsAPassword() throws Exception {
    registryKeepsItsLogOverSaslSslAndTakesBasicAuthForWrites();
    Path dir = kafka.config().dataDir();
    String logs = Files.readString(dir.resolve("broker.log")) + Files.readString(dir.resolve("stdout.log"))
        + ownLog.toString(StandardCharsets.UTF_8);
    assertThat(logs).contains("registry started").contains("SASL_SSL");
    LocalKafka.Security s = kafka.config().security();
    for (String secret : List.of(REGISTRY_KAFKA_PASSWORD, NOBODY_PASSWORD, REGISTRY_WRITER_PASSWORD, s.adminPassword(),
        s.certs().keystorePassword(), s.certs().truststorePassword())) {
      assertThat(logs).as("a log line shows a secret").doesNotContain(secret);
    }
  }

  /** Writes to two streams: the test's own log is shown and kept for the secret check. */
  private static final class TeeStream extends java.io.OutputStream {
    private final java.io.OutputStream a;
    private final java.io.OutputStream b;

    TeeStream(java.io.OutputStream a, java.io.OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws java.io.IOException {
      a.write(c);
      synchronized (b) {
        b.write(c);
      }
    }

    @Override
    public void write(byte[] buf, int off, int len) throws java.io.IOException {
      a.write(buf, off, len);
      synchronized (b) {
        b.write(buf, off, len);
      }
    }
  }
}
