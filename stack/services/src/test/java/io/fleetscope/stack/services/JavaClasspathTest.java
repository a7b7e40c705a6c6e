package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaClasspathTest {
  @TempDir Path tmp;

  @Test
  void manifestOnlyJarIsExpandedIntoItsClassPathEntries() throws Exception {
    // what Surefire/Failsafe hand the forked JVM: one booter jar whose manifest names the real classpath
    Path libs = Files.createDirectories(tmp.resolve("libs"));
    Path a = Files.createFile(libs.resolve("kafka_2.13-4.1.1.jar"));
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().put(Attributes.Name.CLASS_PATH, a.toUri() + " " + classes.toUri());
    Path booter = tmp.resolve("surefirebooter.jar");
    try (OutputStream out = Files.newOutputStream(booter); JarOutputStream j = new JarOutputStream(out, mf)) {
      j.flush();
    }
    Path plain = tmp.resolve("plain-dir");

    assertThat(JavaClasspath.expand(booter + File.pathSeparator + plain + File.pathSeparator))
        .containsExactly(booter.toString(), a.toString(), classes.toString(), plain.toString());
  }

  @Test
  void currentClasspathHoldsTheBrokerAndABinding() {
    String cp = JavaClasspath.current();
    assertThat(cp).contains("kafka_2.13-4.1.1.jar", "slf4j-simple");
  }
}
