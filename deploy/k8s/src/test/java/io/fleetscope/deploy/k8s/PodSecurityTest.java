package io.fleetscope.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every pod runs with the least it needs: non-root (the node agent alone runs as root, for the
 * kubelet's socket and the kernel log, with every capability dropped), no privilege escalation,
 * capabilities dropped, a read-only root filesystem (Flink's entry point alone rewrites its own),
 * RuntimeDefault seccomp; probes and resource requests on every long-running container; secrets only
 * referenced, never in a manifest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PodSecurityTest {
  private static final Set<String> RUNS_AS_ROOT = Set.of("DaemonSet/fleetscope-agent");
  private static final Set<String> WRITABLE_ROOT = Set.of("FlinkDeployment/fleetscope-analytics/flink-main-container");
  private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(password|secret|token|credential|jaas|key).*");

  private List<Manifests> builds;

  @BeforeAll
  void build() throws Exception {
    builds = Manifests.buildAll();
  }

  @Test
  void podsRunAsNonRootWithRuntimeDefaultSeccomp() {
    for (Manifests b : builds) {
      for (ObjectNode w : b.workloads()) {
        String id = w.path("kind").asText() + "/" + Manifests.name(w);
        JsonNode sc = Manifests.podSpec(w).path("securityContext");
        assertThat(sc.path("seccompProfile").path("type").asText()).as(id).isEqualTo("RuntimeDefault");
        if (RUNS_AS_ROOT.contains(id)) {
          assertThat(sc.path("runAsUser").asInt()).as(id).isZero();
        } else {
          assertThat(sc.path("runAsNonRoot").asBoolean(false)).as(id).isTrue();
          assertThat(sc.path("runAsUser").asInt()).as(id).isPositive();
        }
        assertThat(Manifests.podSpec(w).path("hostNetwork").asBoolean(false)).as(id).isFalse();
      }
    }
  }

  @Test
  void containersDropEverythingAndKeepTheirRootFilesystemReadOnly() {
    for (Manifests b : builds) {
      for (Map.Entry<String, JsonNode> c : b.containers()) {
        JsonNode sc = c.getValue().path("securityContext");
        assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).as(c.getKey()).isFalse();
        assertThat(sc.path("privileged").asBoolean(false)).as(c.getKey()).isFalse();
        assertThat(sc.path("capabilities").path("drop")).extracting(JsonNode::asText).as(c.getKey()).containsExactly("ALL");
        assertThat(sc.path("capabilities").has("add")).as(c.getKey()).isFalse();
        assertThat(sc.path("readOnlyRootFilesystem").asBoolean(false)).as(c.getKey()).isEqualTo(!WRITABLE_ROOT.contains(c.getKey()));
      }
    }
  }

  @Test
  void longRunningContainersHaveProbesAndRequests() {
    for (Manifests b : builds) {
      for (ObjectNode w : b.workloads()) {
        for (JsonNode c : Manifests.podSpec(w).path("containers")) {
          String id = w.path("kind").asText() + "/" + Manifests.name(w) + "/" + c.path("name").asText();
          if (!w.path("kind").asText().equals("Job")) {
            assertThat(c.has("readinessProbe")).as(id + " readiness").isTrue();
            assertThat(c.has("livenessProbe")).as(id + " liveness").isTrue();
          }
          if (!w.path("kind").asText().equals("FlinkDeployment")) { // the operator sizes Flink's pods from spec.*.resource
            assertThat(c.path("resources").path("requests").has("cpu")).as(id).isTrue();
            assertThat(c.path("resources").path("requests").has("memory")).as(id).isTrue();
            assertThat(c.path("resources").path("limits").has("memory")).as(id).isTrue();
          }
        }
      }
    }
  }

  @Test
  void secretsAreReferencedNeverInlined() throws Exception {
    for (Manifests b : builds) {
      assertThat(b.ofKind("Secret")).as(b.name()).isEmpty();
      for (Map.Entry<String, JsonNode> c : b.containers()) {
        for (JsonNode e : c.getValue().path("env")) {
          if (e.path("name").asText().endsWith("_FILE")) {
            // a file a mounted Secret provides
            assertThat(e.path("value").asText()).as(c.getKey() + " " + e.path("name").asText()).startsWith("/etc/fleetscope/");
          } else if (SECRET_NAME.matcher(e.path("name").asText()).matches()) {
            assertThat(e.has("value")).as(c.getKey() + " env " + e.path("name").asText() + " comes from a Secret").isFalse();
          }
        }
        for (String a : ComponentsMatchCodeTest.strings(c.getValue().path("args"))) {
          assertThat(a).as(c.getKey()).doesNotContainIgnoringCase("password=").doesNotContainIgnoringCase("secret=");
        }
      }
      for (ObjectNode cm : b.ofKind("ConfigMap")) {
        var files = cm.path("data").fields();
        while (files.hasNext()) {
          var f = files.next();
          if (f.getKey().endsWith(".yaml")) {
            noSecretKeys(Manifests.name(cm) + "/" + f.getKey(), Kustomize.parse(f.getValue().asText()).get(0), "");
          }
        }
      }
      for (ObjectNode f : b.ofKind("FlinkDeployment")) {
        f.path("spec").path("flinkConfiguration").fieldNames().forEachRemaining(k ->
            assertThat(k).as("Flink settings hold no credentials").doesNotContain("secret-key", "access-key", "password"));
      }
    }
  }

  /** Settings files in ConfigMaps name no password, secret, token or key: those come from Secrets. */
  private static void noSecretKeys(String file, JsonNode n, String path) {
    var it = n.fields();
    while (it.hasNext()) {
      var e = it.next();
      assertThat(SECRET_NAME.matcher(e.getKey()).matches() && e.getValue().isValueNode())
          .as(file + ": " + path + e.getKey() + " belongs in a Secret").isFalse();
      noSecretKeys(file, e.getValue(), path + e.getKey() + ".");
    }
  }

  @Test
  void podsWithoutApiNeedsGetNoServiceAccountToken() {
    for (Manifests b : builds) {
      for (ObjectNode w : b.workloads()) {
        if (!w.path("kind").asText().equals("FlinkDeployment")) {
          assertThat(Manifests.podSpec(w).path("automountServiceAccountToken").asBoolean(true))
              .as(w.path("kind").asText() + "/" + Manifests.name(w)).isFalse();
        }
      }
    }
  }
}
