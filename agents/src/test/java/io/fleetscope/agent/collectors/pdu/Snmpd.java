package io.fleetscope.agent.collectors.pdu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real net-snmp {@code snmpd} (Debian package snmpd) on a free UDP port on 127.0.0.1, serving an
 * .snmprec capture through {@code pass_persist}, with a v2c community and a v3 USM user
 * (SHA + AES128) and one with SHA-256 + AES-256. Started in the foreground with a private config and persistent directory.
 */
final class Snmpd implements AutoCloseable {

  static final String SNMPD = "/usr/sbin/snmpd";
  static final String COMMUNITY = "fleetscope-ro";
  static final String V3_USER = "fsv3user";
  static final String V3_AUTH = "auth-pass-123";
  static final String V3_PRIV = "priv-pass-456";
  static final String V3_STRONG_USER = "fsv3strong";
  static final String V3_STRONG_AUTH = "auth-pass-789";
  static final String V3_STRONG_PRIV = "priv-pass-000";

  final int port;
  private final Process process;
  private final List<String> output = Collections.synchronizedList(new ArrayList<>());

  private Snmpd(int port, Process process) {
    this.port = port;
    this.process = process;
  }

  /** Starts snmpd serving the given capture (a test resource under /pdu). */
  static Snmpd serve(Path workDir, String snmprecResource) throws IOException, InterruptedException {
    if (!Files.isExecutable(Path.of(SNMPD))) {
      throw new IllegalStateException(SNMPD + " is missing: install the Debian package snmpd (deploy/local/install.sh does)");
    }
    Files.createDirectories(workDir);
    Path capture = workDir.resolve("capture.snmprec");
    Path script = workDir.resolve("snmprec-pass.pl");
    copy("/pdu/" + snmprecResource, capture);
    copy("/pdu/snmprec-pass.pl", script);
    Path persist = Files.createDirectories(workDir.resolve("persist"));

    StringBuilder conf = new StringBuilder();
    conf.append("rocommunity ").append(COMMUNITY).append(" 127.0.0.1\n");
    conf.append("createUser ").append(V3_USER).append(" SHA \"").append(V3_AUTH).append("\" AES \"").append(V3_PRIV).append("\"\n");
    conf.append("rouser ").append(V3_USER).append(" priv\n");
    conf.append("createUser ").append(V3_STRONG_USER).append(" SHA-256 \"").append(V3_STRONG_AUTH).append("\" AES-256 \"")
        .append(V3_STRONG_PRIV).append("\"\n");
    conf.append("rouser ").append(V3_STRONG_USER).append(" priv\n");
    int n = 0;
    for (String root : enterpriseRoots(capture)) {
      Path wrapper = workDir.resolve("serve-" + (n++) + ".sh");
      Files.writeString(wrapper, "#!/bin/sh\nexec /usr/bin/perl '" + script + "' '" + capture + "' '" + root + "'\n");
      Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
      conf.append("pass_persist .").append(root).append(' ').append(wrapper).append('\n');
    }
    Path confFile = workDir.resolve("snmpd.conf");
    Files.writeString(confFile, conf.toString());

    int port = freeUdpPort();
    ProcessBuilder pb = new ProcessBuilder(SNMPD, "-f", "-Lo", "-C", "-c", confFile.toString(),
        "-p", workDir.resolve("snmpd.pid").toString(), "udp:127.0.0.1:" + port);
    pb.environment().put("SNMP_PERSISTENT_DIR", persist.toString());
    pb.environment().put("MIBS", "");
    pb.redirectErrorStream(true);
    Snmpd d = new Snmpd(port, pb.start());
    d.awaitStarted();
    return d;
  }

  private void awaitStarted() throws IOException, InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          output.add(line);
          if (line.contains("NET-SNMP version")) {
            started.countDown();
          }
        }
      } catch (IOException ignored) {
        // process ended
      }
    }, "snmpd-output");
    reader.setDaemon(true);
    reader.start();
    if (!started.await(20, TimeUnit.SECONDS) || !process.isAlive()) {
      close();
      throw new IOException("snmpd did not start; its output: " + String.join(" | ", output));
    }
  }

  List<String> output() {
    return List.copyOf(output);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** 1.3.6.1.4.1.N roots present in a capture. */
  static Set<String> enterpriseRoots(Path capture) throws IOException {
    Set<String> roots = new LinkedHashSet<>();
    for (String line : Files.readAllLines(capture, StandardCharsets.ISO_8859_1)) {
      if (line.startsWith("1.3.6.1.4.1.")) {
        String[] p = line.substring(0, line.indexOf('|')).split("\\.");
        roots.add(String.join(".", p[0], p[1], p[2], p[3], p[4], p[5], p[6]));
      }
    }
    return roots;
  }

  private static void copy(String resource, Path to) throws IOException {
    try (InputStream in = Snmpd.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("missing test resource " + resource);
      }
      Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static int freeUdpPort() throws IOException {
    try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
