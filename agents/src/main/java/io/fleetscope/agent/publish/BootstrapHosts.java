package io.fleetscope.agent.publish;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/** The {@code host:port} entries of a bootstrap list whose host name does not resolve (yet). */
public final class BootstrapHosts {
  private BootstrapHosts() {}

  /** Resolves a host name; throws when it does not resolve. */
  public interface Resolver {
    void resolve(String host) throws UnknownHostException;
  }

  public static final Resolver DNS = InetAddress::getAllByName;

  /** Entries of {@code bootstrap} (comma-separated {@code host:port}) that {@code resolver} cannot resolve, in list order. */
  public static List<String> unresolved(String bootstrap, Resolver resolver) {
    List<String> out = new ArrayList<>();
    for (String entry : bootstrap.split(",")) {
      String e = entry.strip();
      if (e.isEmpty()) continue;
      try {
        resolver.resolve(host(e));
      } catch (UnknownHostException | SecurityException ex) {
        out.add(e);
      }
    }
    return out;
  }

  /** The host part of {@code host:port}, {@code [v6]:port} or a bare host. */
  static String host(String entry) {
    if (entry.startsWith("[")) {
      int close = entry.indexOf(']');
      return close > 0 ? entry.substring(1, close) : entry;
    }
    int colon = entry.lastIndexOf(':');
    return colon > 0 ? entry.substring(0, colon) : entry;
  }
}
