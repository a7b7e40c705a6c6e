package io.fleetscope.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fleetscope.schemas.kafka.KafkaClientConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The init containers' script turns the Secrets Strimzi writes (a KafkaUser's sasl.jaas.config, the
 * cluster CA's PKCS12 store and its password) into the Kafka client file every component reads with
 * {@link KafkaClientConfig}; run with sh as the pods run it, and loaded by the code.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaClientScriptTest {
  private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"sink\" password=\"s3cr3t\";";

  @TempDir Path tmp;
  private Path script;
  private Manifests base;

  @BeforeAll
  void build() throws Exception {
    base = Manifests.build("base");
    script = Files.createTempFile("write-client-properties", ".sh");
    Files.writeString(script, base.get("ConfigMap", "fleetscope-kafka-client").path("data").path("write-client-properties.sh").asText());
  }

  @Test
  void theFileItWritesIsAKafkaClientConfigWithHiddenSecrets() throws Exception {
    Path root = secrets(false);
    Path out = run(root);
    KafkaClientConfig c = KafkaClientConfig.load(out);
    assertThat(c.kafkaProperties()).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("sasl.jaas.config", JAAS).containsEntry("ssl.truststore.type", "PKCS12")
        .containsEntry("ssl.truststore.location", root.resolve("kafka-ca/ca.p12").toString())
        .containsEntry("ssl.truststore.password", "capw");
    assertThat(c.registryUserInfo()).isEmpty();
    assertThat(c.describe()).doesNotContain("s3cr3t", "capw");
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-------");
  }

  @Test
  void registryCredentialsAreAddedWhenTheirSecretIsMounted() throws Exception {
    KafkaClientConfig c = KafkaClientConfig.load(run(secrets(true)));
    assertThat(c.registryUserInfo()).contains("sink:regpw");
  }

  @Test
  void everyKafkaClientPodRunsItAndMountsItsOutputWhereItsArgumentsLook() {
    java.util.Set<String> clients = new java.util.TreeSet<>();
    for (com.fasterxml.jackson.databind.node.ObjectNode w : base.workloads()) {
      JsonNode pod = Manifests.podSpec(w);
      JsonNode labels = w.path("kind").asText().equals("FlinkDeployment")
          ? w.path("spec").path("podTemplate").path("metadata").path("labels") : w.path("spec").path("template").path("metadata").path("labels");
      boolean labelled = labels.path("fleetscope.io/kafka-client").asText().equals("true");
      boolean namesTheFile = pod.path("containers").get(0).toString().contains(ComponentsMatchCodeTest.KAFKA_CLIENT_FILE)
          || w.path("spec").path("job").path("args").toString().contains(ComponentsMatchCodeTest.KAFKA_CLIENT_FILE)
          || Manifests.name(w).equals("fleetscope-agent")
              && base.get("ConfigMap", "fleetscope-agent").toString().contains(ComponentsMatchCodeTest.KAFKA_CLIENT_FILE);
      // the facility agent's settings are a Secret the site writes: its label says it is a Kafka client
      assertThat(labelled || !namesTheFile).as(Manifests.name(w) + ": names the client file, so may reach Kafka (NetworkPolicy peer label)")
          .isTrue();
      if (!labelled) {
        continue;
      }
      clients.add(Manifests.name(w));
      JsonNode init = pod.path("initContainers").get(0);
      assertThat(ComponentsMatchCodeTest.strings(init.path("command"))).as(Manifests.name(w))
          .containsExactly("/bin/sh", "/opt/fleetscope/kafka-client/write-client-properties.sh");
      if (!Manifests.name(w).equals("fleetscope-registry")) {
        // every component but the registry registers the schemas it writes, which needs the registry's basic auth
        assertThat(AgentsTest.mountOf(init, "registry-credentials")).as(Manifests.name(w)).isEqualTo("/etc/fleetscope/registry-credentials");
      }
      String dir = Path.of(ComponentsMatchCodeTest.KAFKA_CLIENT_FILE).getParent().toString();
      assertThat(AgentsTest.mountOf(init, "kafka-client")).as(Manifests.name(w)).isEqualTo(dir);
      assertThat(AgentsTest.mountOf(pod.path("containers").get(0), "kafka-client")).as(Manifests.name(w)).isEqualTo(dir);
    }
    assertThat(clients).containsExactly("fleetscope-agent", "fleetscope-analytics", "fleetscope-correlator",
        "fleetscope-facility-agent", "fleetscope-registry", "fleetscope-sink");
  }


  private Path secrets(boolean registry) throws Exception {
    Path root = Files.createTempDirectory(tmp, "secrets");
    Files.createDirectories(root.resolve("kafka-user"));
    Files.createDirectories(root.resolve("kafka-ca"));
    Files.createDirectories(root.resolve("kafka"));
    Files.writeString(root.resolve("kafka-user/sasl.jaas.config"), JAAS);
    Files.write(root.resolve("kafka-ca/ca.p12"), new byte[] {1, 2, 3});
    Files.writeString(root.resolve("kafka-ca/ca.password"), "capw");
    if (registry) {
      Files.createDirectories(root.resolve("registry-credentials"));
      Files.writeString(root.resolve("registry-credentials/user-info"), "sink:regpw");
    }
    return root;
  }

  private Path run(Path root) throws Exception {
    Path out = root.resolve("kafka/client.properties");
    ProcessBuilder pb = new ProcessBuilder("sh", script.toString(), out.toString()).redirectErrorStream(true);
    pb.environment().putAll(Map.of("FLEETSCOPE_SECRETS_ROOT", root.toString()));
    Process p = pb.start();
    String log = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(log).isZero();
    assertThat(log.lines().toList()).hasSize(1).allSatisfy(l -> assertThat(l).startsWith("kafka-client file=").doesNotContain("s3cr3t"));
    assertThat(List.of(Files.readString(out).split("\n"))).noneMatch(String::isBlank);
    return out;
  }
}
