package io.fleetscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The webhook receiver on 127.0.0.1 under 10,000 hostile notifications: Alertmanager's webhook
 * body (version 4) mutated (truncated, deep nesting, huge numbers, control characters and line
 * breaks in labels, random text). Each is answered 200 within a time limit and adds exactly one
 * line to notifications.log; a body over the limit is refused with 413 and logs nothing.
 */
class NotificationReceiverHostileHttpTest {
  static final int TRIES = 10_000;
  static final long LIMIT = 256 * 1024;
  /** An Alertmanager webhook (version 4) carrying the alert of a local run (see AlertTextTest). */
  static final String WEBHOOK = "{\"version\":\"4\",\"groupKey\":\"{}:{alertname=\\\"GpuThermalThrottleRisk\\\"}\","
      + "\"truncatedAlerts\":0,\"status\":\"firing\",\"receiver\":\"pager\",\"groupLabels\":{\"alertname\":\"GpuThermalThrottleRisk\"},"
      + "\"commonLabels\":{\"severity\":\"warning\"},\"commonAnnotations\":{},\"externalURL\":\"http://127.0.0.1:19093\","
      + "\"alerts\":[{\"status\":\"firing\",\"labels\":{\"alertname\":\"GpuThermalThrottleRisk\",\"cluster\":\"sim\","
      + "\"gpu\":\"0\",\"loop\":\"loop-02\",\"node\":\"gpu-0007\",\"rack\":\"rack-002\",\"severity\":\"warning\"},"
      + "\"annotations\":{\"summary\":\"Thermal throttle risk warning on gpu-0007 GPU 0 (gpu_temp)\"},"
      + "\"startsAt\":\"2026-12-05T03:00:00Z\",\"endsAt\":\"0001-01-01T00:00:00Z\",\"generatorURL\":\"\","
      + "\"fingerprint\":\"086217ab8da528e3\"}]}";
  static final List<String> VALUES = List.of("NaN", "1e309", "-1", "99999999999999999999999999", "null", "[]", "{}",
      "\"line one\\nnotification ts=forged receiver=pager\"", "\"\\u0000\\r\\n\"", "\"\\uD800\"", "true", "\"0001-01-01T00:00:00Z\"",
      "\"9999-12-31T23:59:59Z\"");

  static Path dir;
  static Path log;
  static NotificationReceiver receiver;
  static HttpClient http;
  static long logOffset;

  @BeforeContainer
  static void start() throws IOException {
    dir = Files.createTempDirectory("receiver");
    log = dir.resolve("notifications.log");
    receiver = new NotificationReceiver(0, log, null, LIMIT).start();
    http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterContainer
  static void stop() throws IOException {
    receiver.close();
    Files.deleteIfExists(log);
    Files.deleteIfExists(dir);
  }

  @Property(tries = TRIES)
  void everyNotificationIsAnsweredAndLoggedOnOneLine(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    String body = mutate(WEBHOOK, r);
    String path = List.of("/pager", "/ticket", "/", "/pager/../x", "/%00").get(r.nextInt(5));
    HttpResponse<String> a = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + receiver.port() + path))
        .timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    List<String> added = newLines();
    if (body.getBytes(StandardCharsets.UTF_8).length > LIMIT) {
      assertThat(a.statusCode()).isEqualTo(413);
      assertThat(added).isEmpty();
      return;
    }
    assertThat(a.statusCode()).isEqualTo(200);
    assertThat(added).as("log lines for " + abbreviate(body)).hasSize(1);
    assertThat(added.get(0)).startsWith("notification ts=");
  }

  @Example
  void aBodyOverTheLimitIsRefusedWith413BeforeItIsRead() throws Exception {
    long before = Files.exists(log) ? Files.size(log) : 0;
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), receiver.port())) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write("POST /pager HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000000\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 413");
    }
    assertThat(Files.exists(log) ? Files.size(log) : 0).isEqualTo(before);
    assertThat(NotificationReceiver.DEFAULT_MAX_BODY_BYTES).isEqualTo(4L * 1024 * 1024);
  }

  static List<String> newLines() throws IOException {
    if (!Files.exists(log)) {
      return List.of();
    }
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      byte[] b = new byte[(int) (f.length() - logOffset)];
      f.seek(logOffset);
      f.readFully(b);
      logOffset = f.length();
      String s = new String(b, StandardCharsets.UTF_8);
      return s.isEmpty() ? List.of() : List.of(s.split("\n", -1)).subList(0, (int) s.chars().filter(c -> c == '\n').count());
    }
  }

  static String mutate(String s, Random r) {
    for (int n = 1 + r.nextInt(3); n > 0; n--) {
      int at = s.isEmpty() ? 0 : r.nextInt(s.length());
      s = switch (r.nextInt(8)) {
        case 0 -> s.substring(0, at);
        case 1 -> s.replaceFirst("\"(summary|node|alertname|status|gpu)\":(\"[^\"]*\"|\\[[^\\]]*\\])", "\"$1\":"
            + java.util.regex.Matcher.quoteReplacement(VALUES.get(r.nextInt(VALUES.size()))));
        case 2 -> s.substring(0, at) + "[".repeat(1 + r.nextInt(5000)) + s.substring(at);
        case 3 -> s.replace("\"alerts\":[", "\"alerts\":[" + "{\"labels\":{\"node\":\"n\"}},".repeat(r.nextInt(3000)));
        case 4 -> s.substring(0, at) + (char) r.nextInt(0x3000) + s.substring(Math.min(s.length(), at + 1));
        case 5 -> s.replace("GPU 0", "GPU 0\\n\\rnotification ts=forged\\u2028" + "x".repeat(r.nextInt(2000)));
        case 6 -> s.substring(0, at) + "9".repeat(1 + r.nextInt(3000)) + s.substring(at);
        default -> s;
      };
    }
    return s;
  }

  static String abbreviate(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "... (" + s.length() + " chars)" : s;
  }
}
