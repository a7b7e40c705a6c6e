package io.fleetscope.schemas.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The address a server of ours listens on: {@value #LOOPBACK} unless configured (flag
 * {@code --http-address}, setting {@code *.http_address}). Only an IP literal is taken, so that
 * nothing is resolved at start and {@code localhost} cannot mean an interface's address; a
 * wildcard ({@code 0.0.0.0}, {@code ::}) is taken only when written so.
 */
public final class ListenAddress {
  public static final String LOOPBACK = "127.0.0.1";

  private ListenAddress() {}

  /** The address of {@code text}, an IPv4 or IPv6 literal; refuses anything else naming {@code what}. */
  public static InetAddress parse(String what, String text) {
    String t = text == null ? "" : text.trim();
    if (t.startsWith("[") && t.endsWith("]")) {
      t = t.substring(1, t.length() - 1);
    }
    boolean v4 = t.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    boolean v6 = t.contains(":") && t.matches("[0-9A-Fa-f:.]+");
    if (!v4 && !v6) {
      throw new IllegalArgumentException(what + " must be an IP address such as " + LOOPBACK + ", got '" + text + "'");
    }
    try {
      return InetAddress.getByName(t);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(what + " must be an IP address such as " + LOOPBACK + ", got '" + text + "'");
    }
  }
}
