package io.fleetscope.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetscope.agent.BuiltinCollectors;
import io.fleetscope.agent.collectors.jobs.JobsCollector;
import io.fleetscope.agent.collectors.xid.XidCollector;
import io.fleetscope.agent.config.AgentConfig;
import io.fleetscope.agent.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node agent's settings load with the agent's own ConfigLoader, and every host path they name is
 * mounted, read-only where the agent only reads; the DaemonSet runs on GPU nodes with no privilege.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentsTest {
  private List<Manifests> builds;

  @TempDir Path tmp;

  @BeforeAll
  void build() throws Exception {
    builds = Manifests.buildAll();
  }

  @Test
  void theNodeAgentsSettingsLoadAndPointAtWhatThePodMounts() throws Exception {
    for (Manifests b : builds) {
      String yaml = b.get("ConfigMap", "fleetscope-agent").path("data").path("node.yaml").asText();
      // the loader reads the Kafka client file: the pod's init container writes it, here a stand-in does
      String clientLine = "config_file: " + ComponentsMatchCodeTest.KAFKA_CLIENT_FILE;
      assertThat(yaml).contains(clientLine);
      Path client = Files.writeString(tmp.resolve("client.properties"), "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n");
      yaml = yaml.replace(clientLine, "config_file: " + client);
      AgentConfig config = new ConfigLoader(BuiltinCollectors.registry()).parse(yaml, Path.of("/etc/fleetscope/agent"));
      ObjectNode ds = b.get("DaemonSet", "fleetscope-agent");
      JsonNode container = Manifests.podSpec(ds).path("containers").get(0);
      assertThat(ComponentsMatchCodeTest.strings(container.path("args"))).containsExactly("--config=/etc/fleetscope/agent/node.yaml");

      assertThat(readOnlyHostMount(ds, container, config.sysRoot().toString())).isEqualTo("/sys");
      XidCollector.Config xid = (XidCollector.Config) config.collectors().get("xid");
      assertThat(readOnlyHostMount(ds, container, xid.file.toString())).isEqualTo("/var/log/kern.log");
      JobsCollector.Config jobs = (JobsCollector.Config) config.collectors().get("jobs");
      assertThat(jobs.source).isEqualTo("kubernetes");
      assertThat(readOnlyHostMount(ds, container, jobs.socket.getParent().toString())).isEqualTo("/var/lib/kubelet/pod-resources");
      assertThat(config.spool.dir.startsWith(mountOf(container, "spool"))).as("the spool is on the spool volume").isTrue();

      assertThat(config.kafkaClient().kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
      assertThat(config.metrics.address).isEqualTo("0.0.0.0");
      assertThat(config.metrics.port).isEqualTo(container.path("ports").get(0).path("containerPort").asInt());
      assertThat(config.interval).hasSeconds(1);
      // docs/sizing.md's record_bytes: the agent's batches as zstd compresses them
      assertThat(config.kafka.compression).isEqualTo("zstd");
    }
  }

  @Test
  void theNodeAgentRunsOnGpuNodesWithoutPrivilege() {
    for (Manifests b : builds) {
      ObjectNode ds = b.get("DaemonSet", "fleetscope-agent");
      JsonNode pod = Manifests.podSpec(ds);
      assertThat(pod.path("nodeSelector").path("nvidia.com/gpu.present").asText()).isEqualTo("true");
      assertThat(pod.path("hostNetwork").asBoolean(false)).isFalse();
      assertThat(pod.path("hostPID").asBoolean(false)).isFalse();
      assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
      JsonNode c = pod.path("containers").get(0);
      assertThat(c.path("securityContext").path("privileged").asBoolean(false)).isFalse();
      assertThat(c.path("securityContext").path("capabilities").path("drop")).extracting(JsonNode::asText).containsExactly("ALL");
      assertThat(c.path("securityContext").path("capabilities").has("add")).isFalse();
      assertThat(c.path("resources").path("limits").has("nvidia.com/gpu")).as("no GPU is allocated to the agent").isFalse();
      // every host path but the spool is mounted read-only
      for (JsonNode v : pod.path("volumes")) {
        if (v.has("hostPath") && !v.path("name").asText().equals("spool")) {
          assertThat(readOnly(c, v.path("name").asText())).as(v.path("name").asText()).isTrue();
        }
      }
    }
  }

  @Test
  void theAgentsRequestsCoverTheMeasuredFootprint() {
    // BENCHMARKS.md, "Agent footprint": 100.3 MiB RSS and 1.10 % of a core (1.33 % with child processes), tuned flags
    for (Manifests b : builds) {
      JsonNode r = Manifests.podSpec(b.get("DaemonSet", "fleetscope-agent")).path("containers").get(0).path("resources");
      assertThat(mebibytes(r.path("requests").path("memory").asText())).isGreaterThanOrEqualTo(100.3);
      assertThat(millicores(r.path("requests").path("cpu").asText())).isGreaterThanOrEqualTo(13.3);
      assertThat(mebibytes(r.path("limits").path("memory").asText())).isGreaterThan(mebibytes(r.path("requests").path("memory").asText()));
    }
  }

  private static double mebibytes(String q) {
    return q.endsWith("Mi") ? Double.parseDouble(q.replace("Mi", "")) : Double.parseDouble(q.replace("Gi", "")) * 1024;
  }

  private static double millicores(String q) {
    return q.endsWith("m") ? Double.parseDouble(q.replace("m", "")) : Double.parseDouble(q) * 1000;
  }

  static String mountOf(JsonNode container, String volume) {
    return ComponentsMatchCodeTest.mountPath(container, volume);
  }

  private static boolean readOnly(JsonNode container, String volume) {
    for (JsonNode m : container.path("volumeMounts")) {
      if (m.path("name").asText().equals(volume)) {
        return m.path("readOnly").asBoolean(false);
      }
    }
    return false;
  }

  /** The host path mounted read-only at {@code containerPath}, else an assertion error. */
  private static String readOnlyHostMount(JsonNode ds, JsonNode container, String containerPath) {
    List<String> seen = new ArrayList<>();
    for (JsonNode m : container.path("volumeMounts")) {
      seen.add(m.path("mountPath").asText());
      if (m.path("mountPath").asText().equals(containerPath)) {
        assertThat(m.path("readOnly").asBoolean(false)).as(containerPath + " read-only").isTrue();
        for (JsonNode v : Manifests.podSpec((ObjectNode) ds).path("volumes")) {
          if (v.path("name").asText().equals(m.path("name").asText())) {
            return v.path("hostPath").path("path").asText();
          }
        }
      }
    }
    throw new AssertionError("nothing is mounted at " + containerPath + "; mounts: " + seen);
  }
}
