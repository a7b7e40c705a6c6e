package io.fleetscope.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetscope.agent.AgentMain;
import io.fleetscope.flink.RunMain;
import io.fleetscope.schemas.cli.LocalEndpoints;
import io.fleetscope.sink.SinkMain;
import io.fleetscope.stack.services.SchemaRegistryServer;
import io.fleetscope.streams.CorrelatorConfig;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Images, command lines, ports and endpoints of the manifests agree with the components' code: each
 * container's arguments are parsed by the component's own picocli command (an unknown flag or a bad
 * value fails), each image is fleetscope/COMPONENT:VERSION with the project's version, and the
 * ports are the ones the code serves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ComponentsMatchCodeTest {
  /** The command class whose options each image's entry point takes. */
  static final Map<String, String> COMMANDS = Map.of(
      "registry", SchemaRegistryServer.class.getName() + "$RegistryCommand",
      "correlator", "io.fleetscope.streams.CorrelatorCommand",
      "sink", SinkMain.class.getName(),
      "console", "io.fleetscope.console.ConsoleCommand",
      "agent", AgentMain.class.getName(),
      "analytics", RunMain.class.getName() + "$Flags");
  static final List<String> COMPONENTS = List.of("agent", "analytics", "correlator", "sink", "console", "registry", "timescaledb");
  /** The shared decision for the sink's metrics server (its flag is not in the code yet). */
  static final int SINK_METRICS_PORT = 18084;
  static final int FLINK_METRICS_PORT = 9249;
  static final String KAFKA_CLIENT_FILE = "/etc/fleetscope/kafka/client.properties";

  private List<Manifests> builds;
  private String version;

  @TempDir Path tmp;

  @BeforeAll
  void build() throws Exception {
    builds = Manifests.buildAll();
    Matcher m = Pattern.compile("<artifactId>fleetscope-parent</artifactId>\\s*<version>([0-9.]+)-SNAPSHOT</version>")
        .matcher(Files.readString(Manifests.repoRoot().resolve("pom.xml")));
    assertThat(m.find()).isTrue();
    version = m.group(1);
  }

  @Test
  void everyImageIsAComponentsImageAtTheProjectsVersionOrAPinnedRelease() {
    for (Manifests b : builds) {
      for (Map.Entry<String, JsonNode> c : b.containers()) {
        String image = c.getValue().path("image").asText();
        if (image.isEmpty() && c.getKey().startsWith("FlinkDeployment/")) {
          continue; // the FlinkDeployment's spec.image
        }
        if (image.startsWith("fleetscope/")) {
          String component = image.substring("fleetscope/".length(), image.indexOf(':'));
          assertThat(COMPONENTS).as(c.getKey()).contains(component);
          assertThat(image).as(c.getKey()).isEqualTo("fleetscope/" + component + ":" + version);
        } else {
          assertThat(image).as(c.getKey() + ": a third-party image pinned to a release").matches("[a-z0-9./-]+:v\\d+\\.\\d+\\.\\d+");
        }
      }
      for (ObjectNode f : b.ofKind("FlinkDeployment")) {
        assertThat(f.path("spec").path("image").asText()).isEqualTo("fleetscope/analytics:" + version);
      }
    }
  }

  @Test
  void everyComponentsArgumentsParseWithItsOwnCommand() throws Exception {
    List<String> checked = new ArrayList<>();
    for (Manifests b : builds) {
      for (Map.Entry<String, JsonNode> c : b.containers()) {
        String component = component(c.getValue().path("image").asText());
        JsonNode args = c.getValue().path("args");
        if (component == null || !COMMANDS.containsKey(component) || args.isMissingNode()) {
          continue;
        }
        parse(component, strings(args));
        checked.add(b.name() + " " + c.getKey());
      }
      for (ObjectNode f : b.ofKind("FlinkDeployment")) {
        parse("analytics", strings(f.path("spec").path("job").path("args")));
        checked.add(b.name() + " analytics job");
      }
    }
    assertThat(checked).hasSize(3 * 8);
  }

  @Test
  void aFlagTheCodeDoesNotHaveIsRefused() {
    assertThatCode(() -> parse("sink", List.of("--jdbc-passwd=/x"))).isInstanceOf(CommandLine.ParameterException.class);
  }

  @Test
  void theComponentsListenWhereTheirServicesAndMonitorsLook() {
    for (Manifests b : builds) {
      assertThat(arg(b, "Deployment", "fleetscope-registry", "--http-port")).isEqualTo(Integer.toString(LocalEndpoints.REGISTRY_PORT));
      assertThat(arg(b, "Deployment", "fleetscope-console", "--http-port")).isEqualTo(Integer.toString(LocalEndpoints.CONSOLE_PORT));
      assertThat(arg(b, "StatefulSet", "fleetscope-correlator", "--http-port"))
          .isEqualTo(CorrelatorConfig.of(Map.of()).get(CorrelatorConfig.HTTP_PORT))
          .isEqualTo(Integer.toString(LocalEndpoints.CORRELATOR_HTTP_PORT));
      for (String w : List.of("Deployment/fleetscope-registry", "Deployment/fleetscope-console", "StatefulSet/fleetscope-correlator")) {
        String[] kn = w.split("/");
        assertThat(arg(b, kn[0], kn[1], "--http-address")).as(w).isEqualTo("0.0.0.0");
        assertThat(containerPort(b, kn[0], kn[1], "http")).as(w).isEqualTo(Integer.parseInt(arg(b, kn[0], kn[1], "--http-port")));
      }
      assertThat(containerPort(b, "Deployment", "fleetscope-sink", "metrics")).isEqualTo(SINK_METRICS_PORT);
      assertThat(containerPort(b, "DaemonSet", "fleetscope-agent", "metrics")).isEqualTo(new io.fleetscope.agent.config.AgentConfig().metrics.port);
      ObjectNode flink = b.get("FlinkDeployment", "fleetscope-analytics");
      assertThat(flink.path("spec").path("flinkConfiguration").path("metrics.reporter.prom.port").asText()).isEqualTo(Integer.toString(FLINK_METRICS_PORT));
      assertThat(containerPort(b, "FlinkDeployment", "fleetscope-analytics", "metrics")).isEqualTo(FLINK_METRICS_PORT);
      servicesReachTheirPods(b);
      monitorsReachTheirServices(b);
    }
  }

  @Test
  void theEndpointsInTheArgumentsAreTheServicesOfTheManifests() {
    for (Manifests b : builds) {
      ObjectNode kafka = b.ofKind("Kafka").get(0);
      String bootstrap = Manifests.name(kafka) + "-kafka-bootstrap:"
          + kafka.path("spec").path("kafka").path("listeners").get(0).path("port").asInt();
      String registry = "http://fleetscope-registry:" + servicePort(b, "fleetscope-registry", "http");
      String jdbc = "jdbc:postgresql://fleetscope-timescaledb:" + servicePort(b, "fleetscope-timescaledb", "postgres") + "/fleetscope";
      for (ObjectNode w : b.workloads()) {
        List<String> args = w.path("kind").asText().equals("FlinkDeployment")
            ? strings(w.path("spec").path("job").path("args")) : strings(Manifests.podSpec(w).path("containers").get(0).path("args"));
        for (String a : args) {
          String id = Manifests.name(w) + " " + a;
          if (a.startsWith("--kafka=")) {
            assertThat(a).as(id).isEqualTo("--kafka=" + bootstrap);
          } else if (a.startsWith("--kafka-config=")) {
            assertThat(a).as(id).isEqualTo("--kafka-config=" + KAFKA_CLIENT_FILE);
          } else if (a.startsWith("--registry=")) {
            assertThat(a).as(id).isEqualTo("--registry=" + registry);
          } else if (a.startsWith("--jdbc=")) {
            assertThat(a).as(id).isEqualTo("--jdbc=" + jdbc);
          } else if (a.startsWith("--alertmanager=")) {
            assertThat(a).as(id).isEqualTo("--alertmanager=http://fleetscope-alertmanager:" + servicePort(b, "fleetscope-alertmanager", "http"));
          } else if (a.startsWith("--incidents-url=")) {
            assertThat(a).as(id).isEqualTo("--incidents-url=http://fleetscope-correlator:" + servicePort(b, "fleetscope-correlator", "http")
                + "/api/v1/incidents");
          } else if (a.startsWith("--group-id=")) {
            assertThat(a).as(id).isEqualTo("--group-id=" + RunMain.JOB_NAME);
          }
        }
      }
    }
  }

  @Test
  void theAnalyticsRunTheJobJarInApplicationModeWithRocksDbCheckpointsHaAndSavepointUpgrades() throws Exception {
    Matcher jar = Pattern.compile("<outputFile>\\$\\{project.build.directory}/([^<]+\\.jar)</outputFile>")
        .matcher(Files.readString(Manifests.repoRoot().resolve("flink-jobs/pom.xml")));
    assertThat(jar.find()).isTrue();
    for (Manifests b : builds) {
      JsonNode spec = b.get("FlinkDeployment", "fleetscope-analytics").path("spec");
      assertThat(spec.path("job").path("jarURI").asText()).isEqualTo("local:///opt/flink/usrlib/" + jar.group(1));
      assertThat(spec.path("job").path("entryClass").asText()).isEqualTo(RunMain.class.getName());
      assertThat(spec.path("job").path("upgradeMode").asText()).isEqualTo("savepoint");
      assertThat(spec.path("mode").asText()).isEqualTo("native");
      JsonNode conf = spec.path("flinkConfiguration");
      assertThat(conf.path("state.backend.type").asText()).isEqualTo("rocksdb");
      assertThat(conf.path("execution.checkpointing.incremental").asText()).isEqualTo("true");
      assertThat(conf.path("high-availability.type").asText()).isEqualTo("kubernetes");
      for (String k : List.of("execution.checkpointing.dir", "execution.checkpointing.savepoint-dir", "high-availability.storageDir")) {
        assertThat(conf.path(k).asText()).as(k).startsWith("s3://");
      }
    }
  }

  @Test
  void theCorrelatorKeepsItsStateOnItsVolumeWithAStandby() throws Exception {
    for (Manifests b : builds) {
      ObjectNode sts = b.get("StatefulSet", "fleetscope-correlator");
      String stateDir = arg(b, "StatefulSet", "fleetscope-correlator", "--state-dir");
      String claim = sts.path("spec").path("volumeClaimTemplates").get(0).path("metadata").path("name").asText();
      assertThat(mountPath(Manifests.podSpec(sts).path("containers").get(0), claim)).isEqualTo(stateDir);
      assertThat(sts.path("spec").path("replicas").asInt()).isGreaterThanOrEqualTo(2);
      Path settings = tmp.resolve(b.name().replace('/', '-') + "-correlator.yaml");
      Files.writeString(settings, b.get("ConfigMap", "fleetscope-correlator").path("data").path("correlator.yaml").asText());
      CorrelatorConfig config = correlatorConfig(List.of("--config=" + settings));
      assertThat(config.standbyReplicas()).isEqualTo(1);
    }
  }

  @Test
  void theMigrationsRunAsAJobOfTheSinkImage() {
    for (Manifests b : builds) {
      JsonNode c = Manifests.podSpec(b.get("Job", "fleetscope-sink-migrations")).path("containers").get(0);
      assertThat(c.path("image").asText()).startsWith("fleetscope/sink:");
      assertThat(strings(c.path("args"))).contains("--migrate-only");
    }
  }

  // ---- helpers

  static Object parse(String component, List<String> args) throws Exception {
    Object command = newCommand(component);
    new CommandLine(command).parseArgs(args.toArray(String[]::new));
    return command;
  }

  private static Object newCommand(String component) throws Exception {
    if (component.equals("agent")) {
      return new AgentMain(System.out, System.err, io.fleetscope.agent.BuiltinCollectors.registry());
    }
    var ctor = Class.forName(COMMANDS.get(component)).getDeclaredConstructors();
    for (var c : ctor) {
      if (c.getParameterCount() == 0) {
        c.setAccessible(true);
        return c.newInstance();
      }
    }
    throw new IllegalStateException(COMMANDS.get(component) + " has no constructor without arguments");
  }

  private static CorrelatorConfig correlatorConfig(List<String> args) throws Exception {
    Object command = parse("correlator", args);
    Method config = command.getClass().getDeclaredMethod("config");
    config.setAccessible(true);
    return (CorrelatorConfig) config.invoke(command);
  }

  static String component(String image) {
    if (!image.startsWith("fleetscope/") || !image.contains(":")) {
      return null;
    }
    return image.substring("fleetscope/".length(), image.indexOf(':'));
  }

  static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static JsonNode mainContainer(Manifests b, String kind, String name) {
    return Manifests.podSpec(b.get(kind, name)).path("containers").get(0);
  }

  private static String arg(Manifests b, String kind, String name, String flag) {
    for (String a : strings(mainContainer(b, kind, name).path("args"))) {
      if (a.startsWith(flag + "=")) {
        return a.substring(flag.length() + 1);
      }
    }
    throw new AssertionError(b.name() + " " + kind + "/" + name + " has no " + flag);
  }

  private static int containerPort(Manifests b, String kind, String name, String portName) {
    for (JsonNode p : mainContainer(b, kind, name).path("ports")) {
      if (p.path("name").asText().equals(portName)) {
        return p.path("containerPort").asInt();
      }
    }
    throw new AssertionError(b.name() + " " + kind + "/" + name + " has no port " + portName);
  }

  private static int servicePort(Manifests b, String service, String portName) {
    for (JsonNode p : b.get("Service", service).path("spec").path("ports")) {
      if (p.path("name").asText().equals(portName)) {
        return p.path("port").asInt();
      }
    }
    throw new AssertionError(b.name() + " Service " + service + " has no port " + portName);
  }

  static String mountPath(JsonNode container, String volume) {
    for (JsonNode m : container.path("volumeMounts")) {
      if (m.path("name").asText().equals(volume)) {
        return m.path("mountPath").asText();
      }
    }
    return null;
  }

  private static boolean selects(JsonNode selector, JsonNode labels) {
    if (selector.isMissingNode() || selector.size() == 0) {
      return false;
    }
    var it = selector.fields();
    while (it.hasNext()) {
      var e = it.next();
      if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
        return false;
      }
    }
    return true;
  }

  /** Each Service selects pods of a workload whose containers have the port names it targets. */
  private static void servicesReachTheirPods(Manifests b) {
    for (ObjectNode s : b.ofKind("Service")) {
      List<ObjectNode> pods = b.workloads().stream()
          .filter(w -> selects(s.path("spec").path("selector"), w.path("spec").path("template").path("metadata").path("labels"))).toList();
      assertThat(pods).as(b.name() + " Service " + Manifests.name(s) + " selects a workload").hasSize(1);
      for (JsonNode p : s.path("spec").path("ports")) {
        String target = p.path("targetPort").asText();
        List<String> names = new ArrayList<>();
        for (JsonNode c : Manifests.podSpec(pods.get(0)).path("containers")) {
          c.path("ports").forEach(cp -> names.add(cp.path("name").asText()));
        }
        assertThat(names).as(b.name() + " Service " + Manifests.name(s) + " targetPort").contains(target);
      }
    }
  }

  /** Each ServiceMonitor selects a Service that has the port it scrapes. */
  private static void monitorsReachTheirServices(Manifests b) {
    assertThat(b.ofKind("ServiceMonitor")).extracting(Manifests::name).containsExactlyInAnyOrder("fleetscope-registry",
        "fleetscope-correlator", "fleetscope-console", "fleetscope-sink", "fleetscope-agent", "fleetscope-facility-agent");
    for (ObjectNode m : b.ofKind("ServiceMonitor")) {
      List<ObjectNode> services = b.ofKind("Service").stream()
          .filter(s -> selects(m.path("spec").path("selector").path("matchLabels"), s.path("metadata").path("labels"))).toList();
      assertThat(services).as(b.name() + " ServiceMonitor " + Manifests.name(m)).isNotEmpty();
      for (JsonNode e : m.path("spec").path("endpoints")) {
        assertThat(e.path("path").asText()).isEqualTo("/metrics");
        for (ObjectNode s : services) {
          List<String> ports = new ArrayList<>();
          s.path("spec").path("ports").forEach(p -> ports.add(p.path("name").asText()));
          assertThat(ports).as(b.name() + " " + Manifests.name(m) + " -> " + Manifests.name(s)).contains(e.path("port").asText());
        }
      }
    }
  }
}
