package io.fleetscope.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientConfigTest {
  @TempDir Path tmp;

  private static final String FILE = String.join("\n",
      "# the sink's client settings",
      "security.protocol=SASL_SSL",
      "sasl.mechanism=SCRAM-SHA-512",
      "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\",
      "  username=\"sink\" password=\"s3cret-kafka\";",
      "ssl.truststore.type=PKCS12",
      "ssl.truststore.location=/etc/fleetscope/truststore.p12",
      "ssl.truststore.password=s3cret-trust",
      "basic.auth.credentials.source=USER_INFO",
      "basic.auth.user.info=sink:s3cret-registry",
      "");

  private Path write(String text) throws Exception {
    Path f = tmp.resolve("client.properties");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void readsTheSecuritySettingsAndTheRegistryCredentials() throws Exception {
    KafkaClientConfig c = KafkaClientConfig.load(write(FILE));
    assertThat(c.kafkaProperties()).containsOnlyKeys("security.protocol", "sasl.mechanism", "sasl.jaas.config",
        "ssl.truststore.type", "ssl.truststore.location", "ssl.truststore.password");
    assertThat(c.kafkaProperties().get("sasl.jaas.config"))
        .isEqualTo("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"sink\" password=\"s3cret-kafka\";");
    assertThat(c.registryUserInfo()).contains("sink:s3cret-registry");
    assertThat(c.isEmpty()).isFalse();
  }

  @Test
  void appliesTheSameKeysToEveryClientAndReplacesThoseTheClientHad() throws Exception {
    KafkaClientConfig c = KafkaClientConfig.load(write(FILE));
    Properties p = new Properties();
    p.put("bootstrap.servers", "b:9093");
    p.put("security.protocol", "PLAINTEXT");
    c.applyTo(p);
    assertThat(p).containsEntry("bootstrap.servers", "b:9093").containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512").doesNotContainKey("basic.auth.user.info");
    Map<String, Object> m = c.applyTo(new LinkedHashMap<>());
    assertThat(m).hasSize(6);
  }

  @Test
  void neverShowsASecret() throws Exception {
    KafkaClientConfig c = KafkaClientConfig.load(write(FILE));
    String shown = c.describe() + " " + c;
    assertThat(shown).doesNotContain("s3cret").contains("security.protocol=SASL_SSL")
        .contains("sasl.jaas.config=[hidden]").contains("ssl.truststore.password=[hidden]")
        .contains("ssl.truststore.location=/etc/fleetscope/truststore.p12").contains("registry_user=sink");
  }

  @Test
  void refusesAKeyThatIsNotASecuritySettingNamingFileAndKey() throws Exception {
    Path f = write(FILE + "acks=0\n");
    assertThatThrownBy(() -> KafkaClientConfig.load(f)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(f.toString()).hasMessageContaining("'acks' is not a security setting");
    Path g = write("bootstrap.servers=x:1\n");
    assertThatThrownBy(() -> KafkaClientConfig.load(g)).hasMessageContaining("'bootstrap.servers' is not a security setting");
  }

  @Test
  void refusesIncompleteRegistryCredentials() throws Exception {
    assertThatThrownBy(() -> KafkaClientConfig.load(write("basic.auth.credentials.source=USER_INFO\n")))
        .hasMessageContaining("needs basic.auth.user.info=user:password");
    assertThatThrownBy(() -> KafkaClientConfig.load(write("basic.auth.user.info=nocolon\n")))
        .hasMessageContaining("must be user:password").hasMessageNotContaining("nocolon");
    assertThatThrownBy(() -> KafkaClientConfig.load(write("basic.auth.credentials.source=SASL_INHERIT\n")))
        .hasMessageContaining("must be USER_INFO or URL");
  }

  @Test
  void takesConfluentsSerializerPrefixForTheRegistryKeys() throws Exception {
    KafkaClientConfig c = KafkaClientConfig.load(write(
        "schema.registry.basic.auth.credentials.source=USER_INFO\nschema.registry.basic.auth.user.info=a:b\n"));
    assertThat(c.registryUserInfo()).contains("a:b");
    assertThat(c.kafkaProperties()).isEmpty();
  }

  @Test
  void aMissingFileIsAClearError() {
    Path missing = tmp.resolve("nope.properties");
    assertThatThrownBy(() -> KafkaClientConfig.load(missing)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cannot read Kafka client config " + missing);
  }

  @Test
  void theFlagWinsOverTheEnvironmentAndNeitherMeansNone() throws Exception {
    Path f = write(FILE);
    Path other = tmp.resolve("other.properties");
    Files.writeString(other, "security.protocol=SSL\n");
    Map<String, String> env = Map.of(KafkaClientConfig.ENV, other.toString());
    assertThat(KafkaClientConfig.resolve(f.toString(), env).kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
    assertThat(KafkaClientConfig.resolve(null, env).kafkaProperties()).containsEntry("security.protocol", "SSL");
    assertThat(KafkaClientConfig.resolve("", Map.of())).isSameAs(KafkaClientConfig.none());
    assertThat(KafkaClientConfig.none().isEmpty()).isTrue();
  }

  @Test
  void survivesJavaSerializationAsFlinkShipsIt() throws Exception {
    KafkaClientConfig c = KafkaClientConfig.load(write(FILE));
    var bytes = new java.io.ByteArrayOutputStream();
    try (var out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(c);
    }
    try (var in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      KafkaClientConfig back = (KafkaClientConfig) in.readObject();
      assertThat(back).isEqualTo(c);
      assertThat(back.registryUserInfo()).contains("sink:s3cret-registry");
    }
  }

  @Test
  void secretKeysAreRecognised() {
    assertThat(KafkaClientConfig.isSecret("ssl.keystore.password")).isTrue();
    assertThat(KafkaClientConfig.isSecret("ssl.key.password")).isTrue();
    assertThat(KafkaClientConfig.isSecret("sasl.jaas.config")).isTrue();
    assertThat(KafkaClientConfig.isSecret("ssl.keystore.key")).isTrue();
    assertThat(KafkaClientConfig.isSecret("sasl.oauthbearer.client.credentials.client.secret")).isTrue();
    assertThat(KafkaClientConfig.isSecret("ssl.truststore.location")).isFalse();
    assertThat(KafkaClientConfig.isSecret("sasl.mechanism")).isFalse();
  }
}
