package io.fleetscope.agent.core;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Minimal HTTP GET with connect/read deadlines (HttpURLConnection: no extra threads). Also reads file: URLs. */
public final class Http {
  private Http() {}

  public static String get(String url, Duration timeout) throws IOException {
    URLConnection c = URI.create(url).toURL().openConnection();
    int ms = (int) Math.max(1, timeout.toMillis());
    c.setConnectTimeout(ms);
    c.setReadTimeout(ms);
    if (c instanceof HttpURLConnection h) {
      h.setRequestProperty("Accept", "text/plain");
      int code = h.getResponseCode();
      if (code != 200) {
        h.disconnect();
        throw new IOException("GET " + url + " answered " + code);
      }
    }
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
