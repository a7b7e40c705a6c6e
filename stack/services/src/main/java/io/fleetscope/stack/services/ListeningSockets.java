package io.fleetscope.stack.services;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The TCP sockets that processes listen on, from {@code /proc/net/tcp} and {@code /proc/net/tcp6}
 * (rows in state LISTEN) joined with the {@code socket:[INODE]} links in {@code /proc/PID/fd}:
 * what {@code ss -ltnp} shows, without needing ss. Parsing is apart from reading /proc.
 */
public final class ListeningSockets {
  private static final String LISTEN = "0A";

  /** One listening socket: its address as text (e.g. {@code 127.0.0.1}, {@code ::}), its port and owner. */
  public record Listener(long pid, String command, String address, int port) {
    /** On a loopback address only (127.0.0.0/8, ::1, or ::ffff:127.x.y.z): not wildcard, not an interface's address. */
    public boolean loopback() {
      return address.startsWith("127.") || address.equals("::1") || address.startsWith("::ffff:127.");
    }

    @Override
    public String toString() {
      return "pid=" + pid + " command=" + command + " address=" + address + " port=" + port;
    }
  }

  /** A LISTEN row of /proc/net/tcp[6]: address, port, inode. */
  record Row(String address, int port, long inode) {}

  private ListeningSockets() {}

  /** The LISTEN rows of the text of /proc/net/tcp ({@code v6} false) or /proc/net/tcp6. */
  static List<Row> parse(String text, boolean v6) {
    List<Row> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 10 || !f[0].endsWith(":") || !LISTEN.equals(f[3])) {
        continue;
      }
      int colon = f[1].indexOf(':');
      String hex = f[1].substring(0, colon);
      int port = Integer.parseInt(f[1].substring(colon + 1), 16);
      out.add(new Row(v6 ? ipv6(hex) : ipv4(hex), port, Long.parseLong(f[9])));
    }
    return out;
  }

  /** {@code 0100007F} (little-endian, as the kernel prints it) to {@code 127.0.0.1}. */
  static String ipv4(String hex) {
    long v = Long.parseLong(hex, 16);
    return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff);
  }

  /** 32 hex digits, four little-endian 32-bit words, to the compressed IPv6 text ({@code ::}, {@code ::1}, {@code ::ffff:127.0.0.1}). */
  static String ipv6(String hex) {
    int[] groups = new int[8];
    for (int w = 0; w < 4; w++) {
      long word = Long.parseLong(hex.substring(w * 8, w * 8 + 8), 16);
      long be = ((word & 0xff) << 24) | ((word & 0xff00) << 8) | ((word >> 8) & 0xff00) | ((word >> 24) & 0xff);
      groups[w * 2] = (int) (be >> 16) & 0xffff;
      groups[w * 2 + 1] = (int) be & 0xffff;
    }
    boolean mapped = groups[0] == 0 && groups[1] == 0 && groups[2] == 0 && groups[3] == 0 && groups[4] == 0 && groups[5] == 0xffff;
    if (mapped) {
      return "::ffff:" + (groups[6] >> 8) + "." + (groups[6] & 0xff) + "." + (groups[7] >> 8) + "." + (groups[7] & 0xff);
    }
    return compress(groups);
  }

  /** RFC 5952 text: the longest run of two or more zero groups becomes {@code ::}. */
  private static String compress(int[] groups) {
    int bestStart = -1;
    int bestLen = 1;
    for (int i = 0; i < 8; ) {
      if (groups[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && groups[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        b.append("::");
        i += bestLen - 1;
        continue;
      }
      if (b.length() > 0 && b.charAt(b.length() - 1) != ':') {
        b.append(':');
      }
      b.append(Integer.toHexString(groups[i]));
    }
    return b.toString();
  }

  /** Every socket that {@code pids} or any of their descendants listen on. */
  public static List<Listener> of(Collection<Long> pids) {
    Set<Long> all = new LinkedHashSet<>();
    for (long pid : pids) {
      all.add(pid);
      ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> all.add(d.pid())));
    }
    Map<Long, Row> byInode = new HashMap<>();
    for (Row r : parse(read(Path.of("/proc/net/tcp")), false)) {
      byInode.put(r.inode(), r);
    }
    for (Row r : parse(read(Path.of("/proc/net/tcp6")), true)) {
      byInode.put(r.inode(), r);
    }
    List<Listener> out = new ArrayList<>();
    for (long pid : all) {
      Set<Long> seen = new LinkedHashSet<>();
      try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
        for (Path fd : fds) {
          long inode = socketInode(fd);
          Row r = byInode.get(inode);
          if (r != null && seen.add(inode)) {
            out.add(new Listener(pid, command(pid), r.address(), r.port()));
          }
        }
      } catch (IOException e) {
        // the process has gone: it listens on nothing
      }
    }
    return out;
  }

  private static long socketInode(Path fd) {
    try {
      String target = Files.readSymbolicLink(fd).toString();
      return target.startsWith("socket:[") ? Long.parseLong(target.substring(8, target.length() - 1)) : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static String command(long pid) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "comm")).trim();
    } catch (IOException e) {
      return "?";
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }
}
