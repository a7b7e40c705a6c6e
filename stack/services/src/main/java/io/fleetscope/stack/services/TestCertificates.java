package io.fleetscope.stack.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A throw-away certificate authority and a broker certificate signed by it for {@code 127.0.0.1}
 * and {@code localhost}, made with the JDK's {@code keytool} (PKCS12 stores): what a secured
 * {@link LocalKafka} serves and what its clients trust. For tests and local runs only: the
 * passwords are random per call and kept in memory.
 *
 * @param keystore the broker's key and certificate chain
 * @param keystorePassword its password (the key's too)
 * @param truststore the CA certificate, for clients
 * @param truststorePassword its password
 */
public record TestCertificates(Path keystore, String keystorePassword, Path truststore, String truststorePassword) {
  /** The Kafka principal of the broker's certificate (its subject), when it presents it as a TLS client. */
  public static final String BROKER_PRINCIPAL = "CN=localhost";
  private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(120);
  private static final String SAN = "SAN=ip:127.0.0.1,dns:localhost";

  /** Makes the CA, the broker's keystore and the clients' truststore under {@code dir} (created if missing). */
  public static TestCertificates create(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("certificates: cannot create " + dir + ": " + e.getMessage(), e);
    }
    String caPass = randomPassword();
    String keyPass = randomPassword();
    String trustPass = randomPassword();
    Path ca = dir.resolve("ca.p12");
    Path caPem = dir.resolve("ca.pem");
    Path broker = dir.resolve("broker.p12");
    Path csr = dir.resolve("broker.csr");
    Path brokerPem = dir.resolve("broker.pem");
    Path trust = dir.resolve("truststore.p12");
    for (Path p : List.of(ca, caPem, broker, csr, brokerPem, trust)) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    keytool(dir, "-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=FleetScope test CA", "-ext", "bc:c", "-validity", "7", "-keystore", ca.toString(), "-storetype", "PKCS12",
        "-storepass", caPass);
    keytool(dir, "-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-storepass", caPass,
        "-file", caPem.toString());
    keytool(dir, "-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=localhost", "-ext", SAN, "-validity", "7", "-keystore", broker.toString(), "-storetype", "PKCS12",
        "-storepass", keyPass);
    keytool(dir, "-certreq", "-alias", "broker", "-keystore", broker.toString(), "-storepass", keyPass,
        "-file", csr.toString());
    keytool(dir, "-gencert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-storepass", caPass,
        "-infile", csr.toString(), "-outfile", brokerPem.toString(), "-ext", SAN, "-validity", "7");
    keytool(dir, "-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore", broker.toString(),
        "-storepass", keyPass);
    keytool(dir, "-importcert", "-alias", "broker", "-file", brokerPem.toString(), "-keystore", broker.toString(),
        "-storepass", keyPass);
    keytool(dir, "-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore", trust.toString(),
        "-storetype", "PKCS12", "-storepass", trustPass);
    return new TestCertificates(broker, keyPass, trust, trustPass);
  }

  /** Kafka client properties that trust this CA: {@code ssl.truststore.*}. */
  public List<String> clientTrustLines() {
    return List.of("ssl.truststore.type=PKCS12", "ssl.truststore.location=" + truststore, "ssl.truststore.password="
        + truststorePassword);
  }

  @Override
  public String toString() {
    return "TestCertificates[keystore=" + keystore + ", truststore=" + truststore + "]";
  }

  private static void keytool(Path dir, String... args) {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    List<String> cmd = new ArrayList<>();
    cmd.add(keytool.toString());
    cmd.addAll(List.of(args));
    try {
      ChildProcesses.run(cmd, dir, KEYTOOL_TIMEOUT);
    } catch (IllegalStateException e) {
      throw new IllegalStateException("certificates: keytool " + args[0] + " failed: "
          + String.valueOf(e.getMessage()).replaceAll("(-storepass) \\S+", "$1 [hidden]"));
    }
  }

  /** 24 random URL-safe characters. */
  public static String randomPassword() {
    byte[] b = new byte[18];
    new java.security.SecureRandom().nextBytes(b);
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
