package io.fleetscope.stack.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks free TCP ports on 127.0.0.1 for services started by tests. */
public final class FreePorts {
  private FreePorts() {}

  /** A port that was free a moment ago (the OS picks it; the socket is closed before returning). */
  public static int pick() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }

  /**
   * Whether 127.0.0.1:port can be bound now (nothing listens there). SO_REUSEADDR is set, as the
   * services set it, so connections of a stopped server lingering in TIME_WAIT do not count.
   */
  public static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether something accepts TCP connections on 127.0.0.1:port. */
  public static boolean isListening(int port) {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
