package io.fleetscope.deploy.k8s;

import io.fleetscope.schemas.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
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

  /** The topics the classes under {@code pkg} (in the classes folder or jar of {@code anchor}) name. */
  static Set<String> usedBy(Class<?> anchor, String pkg, boolean byValueClass) throws IOException {
    Path root;
    try {
      root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
    String prefix = pkg.replace('.', '/') + "/";
    Set<String> out = new TreeSet<>();
    if (Files.isDirectory(root)) {
      try (Stream<Path> files = Files.walk(root.resolve(prefix))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
          scan(Files.readAllBytes(f), byValueClass, out);
        }
      }
    } else {
      // in a reactor build past the package phase the module comes as its jar
      try (JarFile jar = new JarFile(root.toFile())) {
        for (JarEntry e : java.util.Collections.list(jar.entries())) {
          if (e.getName().startsWith(prefix) && e.getName().endsWith(".class")) {
            try (InputStream in = jar.getInputStream(e)) {
              scan(in.readAllBytes(), byValueClass, out);
            }
          }
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalStateException("no class under " + prefix + " in " + root + " names a topic");
    }
    return out;
  }

  private static void scan(byte[] classFile, boolean byValueClass, Set<String> out) {
    String pool = new String(classFile, StandardCharsets.ISO_8859_1);
    for (Topics.TopicSpec t : Topics.all().values()) {
      String valueClass = "L" + t.valueClass().getName().replace('.', '/') + ";";
      if (pool.contains(t.name()) || (byValueClass && pool.contains(valueClass))) {
        out.add(t.name());
      }
    }
  }
}
