package io.fleetscope.stack.services;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The classpath child JVMs (broker, registry) run from: this JVM's {@code java.class.path}, with
 * manifest-only jars (as Maven Surefire/Failsafe write them) expanded into the entries their
 * {@code Class-Path} names, so the child does not depend on a temporary booter jar.
 */
public final class JavaClasspath {
  private JavaClasspath() {}

  /** This JVM's classpath, expanded, as a path-separator joined string. */
  public static String current() {
    return String.join(File.pathSeparator, expand(System.getProperty("java.class.path", "")));
  }

  /** The java executable of this JVM. */
  public static String javaExecutable() {
    return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  }

  static List<String> expand(String classpath) {
    Set<String> out = new LinkedHashSet<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      out.add(new File(entry).getAbsolutePath());
      if (entry.endsWith(".jar")) {
        out.addAll(manifestClassPath(Path.of(entry)));
      }
    }
    return new ArrayList<>(out);
  }

  private static List<String> manifestClassPath(Path jar) {
    List<String> out = new ArrayList<>();
    if (!Files.isRegularFile(jar)) {
      return out;
    }
    try (JarFile jf = new JarFile(jar.toFile())) {
      Manifest m = jf.getManifest();
      String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
      if (cp == null) {
        return out;
      }
      for (String item : cp.trim().split("\\s+")) {
        if (item.isEmpty()) {
          continue;
        }
        try {
          URI u = jar.toUri().resolve(item);
          out.add(Paths.get(u).toString());
        } catch (IllegalArgumentException e) {
          out.add(item);
        }
      }
    } catch (IOException e) {
      // not a readable jar: keep the entry as it is
    }
    return out;
  }
}
