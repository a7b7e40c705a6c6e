package io.fleetscope.agent.collectors.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Redfish client against a real HTTPS server with a self-signed certificate for another host
 * name, as BMCs and PDU cards ship: refused by default, accepted with tls_insecure.
 */
class RedfishTlsIT {

  /** Any resource path; the server answers every GET under /redfish with an empty collection. */
  private static final String COLLECTION = "/redfish/v1/PowerEquipment/RackPDUs";

  @TempDir Path tmp;

  @Test
  void selfSignedCertificatesNeedTlsInsecure() throws Exception {
    Path ks = tmp.resolve("ks.p12");
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", "bmc", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=pdu-card.example.invalid", "-storetype", "PKCS12", "-keystore", ks.toString(),
        "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
    String out = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue()).as(out).isZero();

    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = java.nio.file.Files.newInputStream(ks)) {
      store.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(store, "changeit".toCharArray());
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(kmf.getKeyManagers(), null, null);

    HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(ssl));
    server.createContext("/redfish", ex -> {
      byte[] b = "{\"Members\":[]}".getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, b.length);
      try (ex; var os = ex.getResponseBody()) {
        os.write(b);
      }
    });
    server.start();
    try {
      String base = "https://127.0.0.1:" + server.getAddress().getPort();
      RedfishClient strict = new RedfishClient(base, "u", "p", false, Duration.ofSeconds(5));
      assertThatThrownBy(() -> strict.get(COLLECTION)).isInstanceOf(javax.net.ssl.SSLException.class);

      RedfishClient insecure = new RedfishClient(base, "u", "p", true, Duration.ofSeconds(5));
      assertThat(insecure.get(COLLECTION).path("Members").isArray()).isTrue();
    } finally {
      server.stop(0);
    }
  }
}
