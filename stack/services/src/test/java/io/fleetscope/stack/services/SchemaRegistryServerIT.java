package io.fleetscope.stack.services;

import static io.fleetscope.stack.services.RegistryHttp.schemaBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RestSchemaRegistryClient;
import io.fleetscope.stack.services.RegistryHttp.Reply;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The registry's REST behaviour against a real broker, including every error code and a restart. */
class SchemaRegistryServerIT {
  private static final String TOPIC = "_schemas_registry_it";
  private static final String V1 = "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"it\",\"fields\":["
      + "{\"name\":\"node\",\"type\":\"string\"},{\"name\":\"temp_c\",\"type\":\"double\"}]}";
  // BACKWARD compatible with V1: a new optional field with a default
  private static final String V2 = "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"it\",\"fields\":["
      + "{\"name\":\"node\",\"type\":\"string\"},{\"name\":\"temp_c\",\"type\":\"double\"},"
      + "{\"name\":\"power_w\",\"type\":[\"null\",\"double\"],\"default\":null}]}";
  // not BACKWARD compatible with V2: a new required field without a default
  private static final String V3_BAD = "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"it\",\"fields\":["
      + "{\"name\":\"node\",\"type\":\"string\"},{\"name\":\"temp_c\",\"type\":\"double\"},"
      + "{\"name\":\"power_w\",\"type\":[\"null\",\"double\"],\"default\":null},{\"name\":\"rack\",\"type\":\"string\"}]}";

  private static SchemaRegistryServer server;
  private static RegistryHttp http;

  @BeforeAll
  static void start() {
    server = SchemaRegistryServer.start(TestServices.kafka().bootstrapServers(), 0, TOPIC);
    http = new RegistryHttp(server.url());
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  private static void restart() {
    int port = server.port();
    server.stop();
    server = SchemaRegistryServer.start(TestServices.kafka().bootstrapServers(), port, TOPIC);
    http = new RegistryHttp(server.url());
  }

  @Test
  void registersLooksUpAndEvolvesBackward() {
    Reply r1 = http.post("/subjects/it.a-value/versions", schemaBody(V1));
    assertThat(r1.status()).isEqualTo(200);
    assertThat(r1.contentType()).startsWith("application/vnd.schemaregistry.v1+json");
    int id1 = r1.body().get("id").asInt();

    // same schema again, and whitespace-different text of it: same id, no new version
    assertThat(http.post("/subjects/it.a-value/versions", schemaBody(V1)).body().get("id").asInt()).isEqualTo(id1);
    assertThat(http.post("/subjects/it.a-value/versions", schemaBody(V1.replace(",", " , "))).body().get("id").asInt())
        .isEqualTo(id1);
    assertThat(http.get("/subjects/it.a-value/versions").body().toString()).isEqualTo("[1]");
    // ids are global: the same schema under another subject has the same id
    assertThat(http.post("/subjects/it.b-value/versions", schemaBody(V1)).body().get("id").asInt()).isEqualTo(id1);

    Reply r2 = http.post("/subjects/it.a-value/versions", schemaBody(V2));
    assertThat(r2.status()).isEqualTo(200);
    int id2 = r2.body().get("id").asInt();
    assertThat(id2).isGreaterThan(id1);
    assertThat(http.get("/subjects/it.a-value/versions").body().toString()).isEqualTo("[1,2]");

    JsonNode latest = http.get("/subjects/it.a-value/versions/latest").body();
    assertThat(latest.get("subject").asText()).isEqualTo("it.a-value");
    assertThat(latest.get("version").asInt()).isEqualTo(2);
    assertThat(latest.get("id").asInt()).isEqualTo(id2);
    assertThat(new Schema.Parser().parse(latest.get("schema").asText())).isEqualTo(new Schema.Parser().parse(V2));
    assertThat(http.get("/subjects/it.a-value/versions/1").body().get("id").asInt()).isEqualTo(id1);
    assertThat(http.get("/subjects/it.a-value/versions/-1").body().get("version").asInt()).isEqualTo(2);
    assertThat(new Schema.Parser().parse(http.get("/subjects/it.a-value/versions/1/schema").body().toString()))
        .isEqualTo(new Schema.Parser().parse(V1));

    assertThat(new Schema.Parser().parse(http.get("/schemas/ids/" + id1).body().get("schema").asText()))
        .isEqualTo(new Schema.Parser().parse(V1));
    assertThat(http.get("/schemas/ids/" + id1 + "/versions").body().toString())
        .contains("{\"subject\":\"it.a-value\",\"version\":1}", "{\"subject\":\"it.b-value\",\"version\":1}");

    JsonNode found = http.post("/subjects/it.a-value", schemaBody(V1)).body();
    assertThat(found.get("version").asInt()).isEqualTo(1);
    assertThat(found.get("id").asInt()).isEqualTo(id1);

    assertThat(http.get("/subjects").body().toString()).contains("\"it.a-value\"", "\"it.b-value\"");
    assertThat(http.get("/schemas/types").body().toString()).isEqualTo("[\"AVRO\"]");
    assertThat(http.get("/mode").body().get("mode").asText()).isEqualTo("READWRITE");
    assertThat(http.get("/subjects/it.a-value/versions/1/referencedby").body().toString()).isEqualTo("[]");
  }

  @Test
  void incompatibleChangeIsRefusedWith409AndCompatibilityEndpointAgrees() {
    http.post("/subjects/it.c-value/versions", schemaBody(V1));
    http.post("/subjects/it.c-value/versions", schemaBody(V2));

    Reply check = http.post("/compatibility/subjects/it.c-value/versions/latest?verbose=true", schemaBody(V3_BAD));
    assertThat(check.status()).isEqualTo(200);
    assertThat(check.body().get("is_compatible").asBoolean()).isFalse();
    assertThat(check.body().get("messages").toString()).contains("READER_FIELD_MISSING_DEFAULT_VALUE", "rack");
    assertThat(http.post("/compatibility/subjects/it.c-value/versions/1", schemaBody(V2)).body()
        .get("is_compatible").asBoolean()).isTrue();
    // a subject without versions is compatible with anything
    assertThat(http.post("/compatibility/subjects/it.none-value/versions/latest", schemaBody(V3_BAD)).body()
        .get("is_compatible").asBoolean()).isTrue();

    Reply refused = http.post("/subjects/it.c-value/versions", schemaBody(V3_BAD));
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.errorCode()).isEqualTo(409);
    assertThat(refused.body().get("message").asText()).contains("incompatible", "it.c-value");
    assertThat(http.get("/subjects/it.c-value/versions").body().toString()).isEqualTo("[1,2]");

    // the schemas module's client sees the same through its API
    RestSchemaRegistryClient client = new RestSchemaRegistryClient(server.url());
    assertThat(client.testCompatibility("it.c-value", new Schema.Parser().parse(V3_BAD))).isFalse();
    assertThat(client.testCompatibility("it.c-value", new Schema.Parser().parse(V2))).isTrue();
  }

  @Test
  void configLevelsChangeWhatIsAccepted() {
    assertThat(http.get("/config").body().get("compatibilityLevel").asText()).isEqualTo("BACKWARD");
    http.post("/subjects/it.d-value/versions", schemaBody(V2));
    Reply notSet = http.get("/config/it.d-value");
    assertThat(notSet.status()).isEqualTo(404);
    assertThat(notSet.errorCode()).isEqualTo(40408);
    assertThat(http.get("/config/it.d-value?defaultToGlobal=true").body().get("compatibilityLevel").asText())
        .isEqualTo("BACKWARD");

    Reply bad = http.put("/config/it.d-value", "{\"compatibility\":\"SIDEWAYS\"}");
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.errorCode()).isEqualTo(42203);

    Reply put = http.put("/config/it.d-value", "{\"compatibility\":\"NONE\"}");
    assertThat(put.status()).isEqualTo(200);
    assertThat(put.body().get("compatibility").asText()).isEqualTo("NONE");
    assertThat(http.get("/config/it.d-value").body().get("compatibilityLevel").asText()).isEqualTo("NONE");
    assertThat(http.post("/subjects/it.d-value/versions", schemaBody(V3_BAD)).status()).isEqualTo(200);

    // FORWARD: the old schema must read the new one's data; removing a field without default is refused
    http.put("/config/it.d-value", "{\"compatibility\":\"FORWARD\"}");
    assertThat(http.post("/subjects/it.d-value/versions", schemaBody(V1)).status()).isEqualTo(409);
    assertThat(http.delete("/config/it.d-value").body().get("compatibilityLevel").asText()).isEqualTo("FORWARD");
    assertThat(http.get("/config/it.d-value").errorCode()).isEqualTo(40408);
    assertThat(http.get("/config").body().get("compatibilityLevel").asText()).isEqualTo("BACKWARD");
  }

  @Test
  void everyErrorHasConfluentsStatusAndCode() {
    http.post("/subjects/it.e-value/versions", schemaBody(V1));

    assertError(http.get("/subjects/it.unknown-value/versions"), 404, 40401);
    assertError(http.get("/subjects/it.unknown-value/versions/latest"), 404, 40401);
    assertError(http.post("/subjects/it.unknown-value", schemaBody(V1)), 404, 40401);
    assertError(http.delete("/subjects/it.unknown-value"), 404, 40401);
    assertError(http.post("/compatibility/subjects/it.unknown-value/versions/1", schemaBody(V1)), 404, 40401);
    assertError(http.get("/subjects/it.e-value/versions/99"), 404, 40402);
    assertError(http.post("/compatibility/subjects/it.e-value/versions/99", schemaBody(V1)), 404, 40402);
    assertError(http.get("/schemas/ids/999999"), 404, 40403);
    assertError(http.post("/subjects/it.e-value", schemaBody(V2)), 404, 40403);
    assertError(http.post("/subjects/it.e-value/versions", schemaBody("{\"type\":\"record\",\"name\":\"X\"")), 422, 42201);
    assertError(http.post("/subjects/it.e-value/versions", schemaBody("{\"type\":\"nosuchtype\"}")), 422, 42201);
    assertError(http.post("/subjects/it.e-value/versions",
        "{\"schema\":\"{\\\"type\\\":\\\"string\\\"}\",\"schemaType\":\"PROTOBUF\"}"), 422, 42201);
    assertError(http.post("/compatibility/subjects/it.e-value/versions/latest", schemaBody("not json")), 422, 42201);
    assertError(http.get("/subjects/it.e-value/versions/abc"), 422, 42202);
    assertError(http.get("/subjects/it.e-value/versions/0"), 422, 42202);
    assertError(http.post("/compatibility/subjects/it.e-value/versions/x", schemaBody(V1)), 422, 42202);
    assertError(http.get("/no/such/path"), 404, 404);
    assertError(http.post("/subjects/it.e-value/versions", "{not json"), 400, 400);

    // the schemas module's client maps them to its RegistryException
    RestSchemaRegistryClient client = new RestSchemaRegistryClient(server.url());
    assertThatThrownBy(() -> client.getById(999999)).isInstanceOf(io.fleetscope.serde.RegistryException.class)
        .hasMessageContaining("40403");
  }

  @Test
  void aBodyOverTheLimitIsRefusedWith413AndErrorCode413() {
    String big = schemaBody("{\"type\":\"string\",\"doc\":\"" + "x".repeat((int) SchemaRegistryServer.DEFAULT_MAX_BODY_BYTES) + "\"}");
    assertError(http.post("/subjects/it.big-value/versions", big), 413, 413);
    assertError(http.get("/subjects/it.big-value/versions"), 404, 40401);
  }

  @Test
  void softDeleteHidesSubjectButKeepsIds() {
    int id = http.post("/subjects/it.f-value/versions", schemaBody(V1)).body().get("id").asInt();
    Reply del = http.delete("/subjects/it.f-value");
    assertThat(del.status()).isEqualTo(200);
    assertThat(del.body().toString()).isEqualTo("[1]");
    assertThat(http.get("/subjects").body().toString()).doesNotContain("\"it.f-value\"");
    assertError(http.get("/subjects/it.f-value/versions"), 404, 40401);
    assertThat(http.get("/schemas/ids/" + id).status()).isEqualTo(200);
    // soft-deleted versions stay visible on request
    assertThat(http.get("/subjects?deleted=true").body().toString()).contains("\"it.f-value\"");
    assertThat(http.get("/subjects/it.f-value/versions?deleted=true").body().toString()).isEqualTo("[1]");
    assertThat(http.get("/subjects/it.f-value/versions/1?deleted=true").body().get("id").asInt()).isEqualTo(id);
    assertError(http.get("/subjects/it.f-value/versions/1"), 404, 40401);
    // hard delete would allow id reuse: refused
    assertError(http.delete("/subjects/it.f-value?permanent=true"), 405, 405);
    // registering again after a soft delete continues the version numbers, same id
    Reply again = http.post("/subjects/it.f-value/versions", schemaBody(V1));
    assertThat(again.body().get("id").asInt()).isEqualTo(id);
    assertThat(http.get("/subjects/it.f-value/versions").body().toString()).isEqualTo("[2]");
  }

  @Test
  void restartKeepsEveryIdAndVersion() throws Exception {
    // a state of several subjects and versions, with the real FleetScope schemas among them
    RestSchemaRegistryClient client = new RestSchemaRegistryClient(server.url());
    for (Topics.TopicSpec t : Topics.all().values()) {
      client.register(t.valueSubject(), t.schema());
    }
    http.post("/subjects/it.g-value/versions", schemaBody(V1));
    http.post("/subjects/it.g-value/versions", schemaBody(V2));
    http.put("/config/it.g-value", "{\"compatibility\":\"FULL\"}");
    List<String> before = snapshot();
    int maxBefore = maxId(before);

    // a record written before the restart
    AvroSerializer<GpuSample> ser = new AvroSerializer<>(client);
    GpuSample sample = GpuSample.newBuilder().setTs(1_764_000_000_000L).setCluster("c1").setNode("node-a")
        .setAgentSeq(7L).setGpu(3).setTempC(71.5).build();
    byte[] bytes = ser.serialize(Topics.GPU, sample);

    restart();
    assertThat(snapshot()).isEqualTo(before);
    assertThat(http.get("/config/it.g-value").body().get("compatibilityLevel").asText()).isEqualTo("FULL");

    // a fresh client (no caches) reads the old record through the restarted registry
    AvroDeserializer<GpuSample> de = new AvroDeserializer<>(new RestSchemaRegistryClient(server.url()), GpuSample.class);
    assertThat(de.deserialize(Topics.GPU, bytes)).isEqualTo(sample);

    // ids keep increasing after a restart
    int newId = http.post("/subjects/it.h-value/versions", schemaBody(V3_BAD)).body().get("id").asInt();
    assertThat(newId).isGreaterThan(maxBefore);

    try (Admin admin = TestServices.kafka().admin()) {
      ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
      assertThat(admin.describeConfigs(List.of(r)).all().get().get(r).get("cleanup.policy").value()).isEqualTo("compact");
      assertThat(admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC).partitions()).hasSize(1);
    }
  }

  /** subject/version/id/schema of every live version, in order. */
  private static List<String> snapshot() {
    List<String> out = new ArrayList<>();
    for (JsonNode s : http.get("/subjects").body()) {
      for (JsonNode v : http.get("/subjects/" + s.asText() + "/versions").body()) {
        JsonNode d = http.get("/subjects/" + s.asText() + "/versions/" + v.asInt()).body();
        out.add(d.get("subject").asText() + "/" + d.get("version").asInt() + "/" + d.get("id").asInt() + "/"
            + d.get("schema").asText());
      }
    }
    assertThat(out).isNotEmpty();
    return out;
  }

  private static int maxId(List<String> snapshot) {
    return snapshot.stream().mapToInt(s -> Integer.parseInt(s.split("/")[2])).max().orElseThrow();
  }

  private static void assertError(Reply r, int status, int code) {
    assertThat(r.status()).as("status of %s", r.body()).isEqualTo(status);
    assertThat(r.errorCode()).as("error_code of %s", r.body()).isEqualTo(code);
    assertThat(r.body().get("message").asText()).isNotBlank();
  }

}
