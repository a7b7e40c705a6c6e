package io.fleetscope.deploy.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds a kustomization with a real Kustomize: {@code kubectl kustomize DIR} of the kubectl that
 * {@code $FLEETSCOPE_KUBECTL} names, else the one on the PATH (deploy/local/install.sh installs
 * Debian's kubernetes-client where none is). The manifests are written for Kustomize v2.0.3 (kubectl
 * 1.20) and build the same with v5.
 */
final class Kustomize {
  static final String ENV = "FLEETSCOPE_KUBECTL";
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Kustomize() {}

  /** The objects of {@code dir} as Kustomize renders them, in its order. */
  static List<ObjectNode> build(Path dir) throws IOException, InterruptedException {
    return parse(run(dir));
  }

  static String kubectl() {
    String k = System.getenv(ENV);
    return k == null || k.isBlank() ? "kubectl" : k;
  }

  private static String run(Path dir) throws IOException, InterruptedException {
    Path err = Files.createTempFile("kustomize", ".err");
    Process p;
    try {
      p = new ProcessBuilder(kubectl(), "kustomize", dir.toString()).redirectError(err.toFile()).start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run '" + kubectl() + " kustomize': " + e.getMessage()
          + "; install kubectl (Debian: apt-get install kubernetes-client, as deploy/local/install.sh does) or set $" + ENV, e);
    }
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(kubectl() + " kustomize " + dir + " did not finish in 60 s");
    }
    String stderr = Files.readString(err);
    Files.deleteIfExists(err);
    if (p.exitValue() != 0) {
      throw new IllegalStateException(kubectl() + " kustomize " + dir + " failed (exit " + p.exitValue() + "): " + stderr);
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /** Every document of a YAML stream, as objects. */
  static List<ObjectNode> parse(String yaml) throws IOException {
    List<ObjectNode> out = new ArrayList<>();
    try (YAMLParser parser = new YAMLFactory().createParser(yaml)) {
      for (JsonNode n : YAML.readValues(parser, JsonNode.class).readAll()) {
        if (n instanceof ObjectNode o) {
          out.add(o);
        }
      }
    }
    return out;
  }
}
