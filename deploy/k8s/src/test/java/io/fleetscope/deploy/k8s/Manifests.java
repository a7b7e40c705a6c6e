package io.fleetscope.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The objects of one built kustomization (the base or an overlay) and ways to find them. */
record Manifests(String name, List<ObjectNode> objects) {
  /** The overlays and the base, by name. */
  static final List<String> BUILDS = List.of("base", "overlays/small", "overlays/large");

  static Path repoRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isRegularFile(p.resolve("schemas/pom.xml"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }
    return p;
  }

  static Path k8sDir() {
    return repoRoot().resolve("deploy/k8s");
  }

  static Manifests build(String name) throws IOException, InterruptedException {
    return new Manifests(name, Kustomize.build(k8sDir().resolve(name)));
  }

  static List<Manifests> buildAll() throws IOException, InterruptedException {
    List<Manifests> out = new ArrayList<>();
    for (String b : BUILDS) {
      out.add(build(b));
    }
    return out;
  }

  List<ObjectNode> ofKind(String kind) {
    return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
  }

  Optional<ObjectNode> find(String kind, String objectName) {
    return ofKind(kind).stream().filter(o -> objectName.equals(o.path("metadata").path("name").asText())).findFirst();
  }

  ObjectNode get(String kind, String objectName) {
    return find(kind, objectName).orElseThrow(() -> new AssertionError(name + ": no " + kind + " " + objectName));
  }

  /** The pod spec of a workload (Deployment, StatefulSet, DaemonSet, Job) or a FlinkDeployment's pod template. */
  static JsonNode podSpec(ObjectNode o) {
    return switch (o.path("kind").asText()) {
      case "FlinkDeployment" -> o.path("spec").path("podTemplate").path("spec");
      default -> o.path("spec").path("template").path("spec");
    };
  }

  static final List<String> WORKLOADS = List.of("Deployment", "StatefulSet", "DaemonSet", "Job", "FlinkDeployment");

  List<ObjectNode> workloads() {
    return objects.stream().filter(o -> WORKLOADS.contains(o.path("kind").asText())).toList();
  }

  /** Every container and init container of every workload, with the workload's kind/name. */
  List<Map.Entry<String, JsonNode>> containers() {
    List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
    for (ObjectNode w : workloads()) {
      String id = w.path("kind").asText() + "/" + w.path("metadata").path("name").asText();
      for (String field : List.of("initContainers", "containers")) {
        for (JsonNode c : podSpec(w).path(field)) {
          out.add(Map.entry(id + "/" + c.path("name").asText(), c));
        }
      }
    }
    return out;
  }

  static String name(JsonNode o) {
    return o.path("metadata").path("name").asText();
  }
}
