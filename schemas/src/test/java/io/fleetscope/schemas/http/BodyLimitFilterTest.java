package io.fleetscope.schemas.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BodyLimitFilterTest {
  static final int LIMIT = 1000;
  HttpServer server;
  final AtomicInteger handled = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", ex -> {
      handled.incrementAndGet();
      byte[] got = ex.getRequestBody().readAllBytes();
      byte[] b = ("{\"read\":" + got.length + "}").getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, b.length);
      try (OutputStream o = ex.getResponseBody()) {
        o.write(b);
      }
    }).getFilters().add(new BodyLimitFilter("test", LIMIT));
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Test
  void aDeclaredLengthOverTheLimitIsRefusedAtOnceWithoutSendingTheBody() throws Exception {
    long t0 = System.nanoTime();
    RawHttp.Answer a = RawHttp.send(port(), "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000000000\r\n\r\n", new byte[0]);
    assertThat(a.status()).isEqualTo(413);
    assertThat(a.body()).contains("larger than 1000 bytes").contains("content_length=1000000000000");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(2));
    assertThat(handled).hasValue(0);
  }

  @Test
  void aLengthTooLargeForALongOrNotANumberIsRefused() throws Exception {
    // the JDK server itself answers 400 to a length it cannot parse, before any filter runs
    assertThat(RawHttp.send(port(), "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        new byte[0]).status()).isIn(400, 413);
    assertThat(BodyLimitFilter.contentLength("99999999999999999999999")).isEqualTo(Long.MAX_VALUE);
    assertThat(BodyLimitFilter.contentLength("-5")).isEqualTo(-1);
    assertThat(BodyLimitFilter.contentLength(" 12 ")).isEqualTo(12);
    assertThat(handled).hasValue(0);
  }

  @Test
  void aChunkedBodyOverTheLimitIsRefusedWithoutReadingItWhole() throws Exception {
    // 1 MB announced in chunks; the answer arrives after the first ~limit bytes, before the rest is sent
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port())) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      byte[] chunk = new byte[600];
      for (int i = 0; i < 2; i++) {
        out.write(("258\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(chunk);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      }
      out.flush();
      RawHttp.Answer a = RawHttp.read(s.getInputStream());
      assertThat(a.status()).isEqualTo(413);
      assertThat(a.body()).contains("content_length=chunked");
    }
    assertThat(handled).hasValue(0);
  }

  @Test
  void aBodyAtTheLimitReachesTheHandlerWhole() throws Exception {
    RawHttp.Answer a = RawHttp.send(port(), "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n", new byte[LIMIT]);
    assertThat(a.status()).isEqualTo(200);
    assertThat(a.body()).isEqualTo("{\"read\":1000}");
    RawHttp.Answer over = RawHttp.send(port(), "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1001\r\n\r\n", new byte[LIMIT + 1]);
    assertThat(over.status()).isEqualTo(413);
    assertThat(handled).hasValue(1);
  }

  @Test
  void aChunkedBodyWithinTheLimitReachesTheHandler() throws Exception {
    RawHttp.Answer a = RawHttp.send(port(), "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
        "5\r\nhello\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThat(a.status()).isEqualTo(200);
    assertThat(a.body()).isEqualTo("{\"read\":5}");
  }

  @Test
  void aLimitOutOfRangeIsRefusedAtConstruction() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new BodyLimitFilter("x", -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x: request body limit");
  }
}
