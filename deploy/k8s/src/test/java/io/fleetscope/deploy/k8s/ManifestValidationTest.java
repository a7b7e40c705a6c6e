package io.fleetscope.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every object of the base and both overlays, built by a real Kustomize, is valid: Kubernetes' own
 * kinds against fabric8's model (unknown fields refused), Strimzi, Flink-operator and
 * Prometheus-operator resources against their CRDs' schemas, made strict.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManifestValidationTest {
  private List<Manifests> builds;
  private CrdSchemas crds;
  private final StrictKubernetesModel model = new StrictKubernetesModel();

  @BeforeAll
  void build() throws Exception {
    builds = Manifests.buildAll();
    crds = CrdSchemas.load();
  }

  @Test
  void everyObjectIsValid() {
    List<String> problems = new ArrayList<>();
    for (Manifests m : builds) {
      assertThat(m.objects()).as(m.name()).hasSizeGreaterThan(50);
      for (ObjectNode o : m.objects()) {
        String id = m.name() + " " + o.path("apiVersion").asText() + " " + o.path("kind").asText() + "/" + Manifests.name(o);
        problems(o).forEach(p -> problems.add(id + ": " + p));
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theBuildsHoldTheKindsTheyShould() {
    for (Manifests m : builds) {
      assertThat(m.objects().stream().map(o -> o.path("kind").asText()).distinct()).as(m.name()).contains(
          "Kafka", "KafkaNodePool", "KafkaTopic", "KafkaUser", "FlinkDeployment", "StatefulSet", "Deployment",
          "DaemonSet", "Job", "Service", "ServiceMonitor", "PodMonitor", "PodDisruptionBudget", "NetworkPolicy")
          .doesNotContain("Secret");
    }
  }

  private List<String> problems(ObjectNode o) {
    Optional<Class<?>> core = StrictKubernetesModel.modelOf(o);
    if (core.isPresent()) {
      return model.problems(o, core.get());
    }
    Optional<JsonSchema> schema = crds.schemaOf(o);
    if (schema.isEmpty()) {
      return List.of("neither a checked Kubernetes kind nor a kind of the vendored CRDs");
    }
    List<String> out = new ArrayList<>(CrdSchemas.problems(schema.get(), o));
    out.addAll(model.metadataProblems(o));
    if (o.path("kind").asText().equals("FlinkDeployment")) {
      // the pod template is a Pod; the CRD's copy of its schema is checked above, the model checks it too
      model.problems(o.path("spec").path("podTemplate"), io.fabric8.kubernetes.api.model.Pod.class)
          .forEach(p -> out.add("spec.podTemplate" + p));
    }
    return out;
  }

  // The checks themselves must be able to fail.

  @Test
  void aMisspeltFieldOfACoreKindIsRefused() throws Exception {
    ObjectNode d = first("Deployment");
    ((ObjectNode) Manifests.podSpec(d).path("containers").get(0)).put("imagePullPolicyy", "Always");
    assertThat(model.problems(d, io.fabric8.kubernetes.api.model.apps.Deployment.class))
        .anySatisfy(p -> assertThat(p).contains("imagePullPolicyy"));
  }

  @Test
  void aStringWhereTheModelWantsANumberIsRefused() {
    ObjectNode d = first("Deployment");
    ((ObjectNode) d.path("spec")).put("replicas", "2");
    assertThat(model.problems(d, io.fabric8.kubernetes.api.model.apps.Deployment.class)).isNotEmpty();
  }

  @Test
  void aMisspeltFieldOfACustomResourceIsRefused() {
    ObjectNode t = first("KafkaTopic");
    ((ObjectNode) t.path("spec")).put("partition", 4);
    assertThat(CrdSchemas.problems(crds.schemaOf(t).orElseThrow(), t)).anySatisfy(p -> assertThat(p).contains("partition"));
    ObjectNode f = first("FlinkDeployment");
    ((ObjectNode) f.path("spec").path("job")).put("upgradeMode", "savepointt");
    assertThat(CrdSchemas.problems(crds.schemaOf(f).orElseThrow(), f)).anySatisfy(p -> assertThat(p).contains("upgradeMode"));
  }

  @Test
  void freeFormMapsOfTheCrdsStayOpen() {
    ObjectNode k = first("Kafka");
    ((ObjectNode) k.path("spec").path("kafka").path("config")).put("num.io.threads", 8);
    assertThat(CrdSchemas.problems(crds.schemaOf(k).orElseThrow(), k)).isEmpty();
  }

  private ObjectNode first(String kind) {
    JsonNode n = builds.get(0).ofKind(kind).get(0);
    return n.deepCopy();
  }
}
