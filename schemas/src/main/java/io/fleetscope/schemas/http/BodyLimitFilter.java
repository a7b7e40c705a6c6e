package io.fleetscope.schemas.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a request body larger than a server's limit with 413, before its handler runs and
 * without keeping the body: a {@code Content-Length} over the limit is refused without handing any
 * of it on; a body of unknown length (chunked) is read up to limit + 1 bytes and refused when it has
 * more, at once. The connection is closed after a 413. A declared body of at most
 * {@value #DISCARD_BYTES} bytes over the limit is read and thrown away first, as web servers do
 * before they close: a client still sending it would otherwise see the connection reset instead of
 * the 413 (a longer or chunked one is refused at once, and its client may see just that). A body within the limit is handed to the handler from memory,
 * so a handler may read it whole.
 *
 * <p>Add it to every context of a JDK {@code HttpServer}: {@code ctx.getFilters().add(filter)}.
 */
public final class BodyLimitFilter extends Filter {
  private static final Logger log = LoggerFactory.getLogger(BodyLimitFilter.class);

  /** How much of a refused body is read and thrown away before the 413, so its client sees the answer. */
  public static final long DISCARD_BYTES = 1 << 20;

  private final String server;
  private final long maxBytes;
  private final Function<String, String> errorJson;

  /**
   * @param server the server's name, for the log line
   * @param maxBytes the largest body accepted, in bytes (0: no body at all)
   * @param errorJson the server's JSON error body for a message
   */
  public BodyLimitFilter(String server, long maxBytes, Function<String, String> errorJson) {
    if (maxBytes < 0 || maxBytes > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(server + ": request body limit must be 0.." + (Integer.MAX_VALUE - 8)
          + " bytes, got " + maxBytes);
    }
    this.server = server;
    this.maxBytes = maxBytes;
    this.errorJson = errorJson;
  }

  /** With the error body {@code {"error":"..."}}. */
  public BodyLimitFilter(String server, long maxBytes) {
    this(server, maxBytes, BodyLimitFilter::simpleError);
  }

  public long maxBytes() {
    return maxBytes;
  }

  @Override
  public String description() {
    return "refuses request bodies over " + maxBytes + " bytes with 413";
  }

  @Override
  public void doFilter(HttpExchange ex, Chain chain) throws IOException {
    String declared = ex.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      long length = contentLength(declared);
      if (length < 0 || length > maxBytes) {
        if (length > 0 && length <= maxBytes + DISCARD_BYTES) {
          discard(ex, length);
        }
        refuse(ex, declared.trim());
        return;
      }
    }
    byte[] body = ex.getRequestBody().readNBytes((int) maxBytes + 1);
    if (body.length > maxBytes) {
      refuse(ex, "chunked");
      return;
    }
    ex.setStreams(new ByteArrayInputStream(body), null);
    chain.doFilter(ex);
  }

  /** The declared length, Long.MAX_VALUE for one too large for a long, -1 when not a number. */
  static long contentLength(String v) {
    String s = v.trim();
    if (s.isEmpty() || s.length() > 40 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return -1;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  /** Reads and drops up to {@code bytes} of the request body (less when it ends first). */
  private static void discard(HttpExchange ex, long bytes) throws IOException {
    byte[] sink = new byte[8192];
    long left = bytes;
    java.io.InputStream in = ex.getRequestBody();
    while (left > 0) {
      int n = in.read(sink, 0, (int) Math.min(sink.length, left));
      if (n < 0) {
        return;
      }
      left -= n;
    }
  }

  private void refuse(HttpExchange ex, String length) throws IOException {
    log.warn("{} request refused status=413 method={} path={} content_length={} limit_bytes={}", server,
        ex.getRequestMethod(), ex.getRequestURI().getRawPath(), length, maxBytes);
    byte[] b = errorJson.apply("request body larger than " + maxBytes + " bytes (content_length=" + length + ")")
        .getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.getResponseHeaders().set("Connection", "close");
    ex.sendResponseHeaders(413, b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
    ex.close();
  }

  static String simpleError(String message) {
    return "{\"error\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
  }
}
