package io.fleetscope.deploy.k8s;

import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Which topics a part of the code uses, read from its compiled classes: a topic's name is a
 * compile-time constant ({@link Topics}), so it sits in the constant pool of every class that writes
 * or reads it by name; with {@code byValueClass}, a reference to the topic's Avro value class counts
 * too (code that routes records by their class, as the analytics' outputs do).
 */
final class CodeTopics {
  private CodeTopics() {}

  /** The topics the classes under {@code pkg} (found next to {@code anchor}'s class) name. */
  static Set<String> usedBy(Class<?> anchor, String pkg, boolean byValueClass) throws IOException {
    Path root;
    try {
      root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    if (!Files.isDirectory(root)) {
      throw new IllegalStateException(anchor + " is not loaded from a classes folder but from " + root
          + "; run the tests in the reactor (mvn -pl deploy/k8s -am)");
    }
    Path dir = root.resolve(pkg.replace('.', '/'));
    Set<String> out = new TreeSet<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String pool = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        for (Topics.TopicSpec t : Topics.all().values()) {
          String valueClass = "L" + t.valueClass().getName().replace('.', '/') + ";";
          if (pool.contains(t.name()) || (byValueClass && pool.contains(valueClass))) {
            out.add(t.name());
          }
        }
      }
    }
    return out;
  }
}
