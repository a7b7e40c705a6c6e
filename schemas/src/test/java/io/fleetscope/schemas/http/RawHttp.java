package io.fleetscope.schemas.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** One HTTP/1.1 request over a plain socket, so that a test controls every byte and header sent. */
final class RawHttp {
  private RawHttp() {}

  /** Sends the head and then body bytes, and returns the status line's code and the answer. */
  static Answer send(int port, String head, byte[] body) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      return read(s.getInputStream());
    }
  }

  static Answer read(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    int n;
    while ((n = in.read(buf)) > 0) {
      b.write(buf, 0, n);
      String text = b.toString(StandardCharsets.ISO_8859_1);
      int headEnd = text.indexOf("\r\n\r\n");
      if (headEnd > 0) {
        int cl = text.toLowerCase().indexOf("content-length:");
        if (cl > 0 && cl < headEnd) {
          int len = Integer.parseInt(text.substring(cl + 15, text.indexOf("\r\n", cl)).trim());
          if (b.size() >= headEnd + 4 + len) {
            return new Answer(Integer.parseInt(text.substring(9, 12)), text.substring(headEnd + 4, headEnd + 4 + len));
          }
        }
      }
    }
    String text = b.toString(StandardCharsets.ISO_8859_1);
    if (text.length() < 12) {
      throw new IOException("no answer (" + text.length() + " bytes)");
    }
    return new Answer(Integer.parseInt(text.substring(9, 12)), text.substring(Math.max(0, text.indexOf("\r\n\r\n") + 4)));
  }

  record Answer(int status, String body) {}
}
