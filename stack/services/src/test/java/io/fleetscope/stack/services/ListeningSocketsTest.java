package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.stack.services.ListeningSockets.Listener;
import io.fleetscope.stack.services.ListeningSockets.Row;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListeningSocketsTest {
  // /proc/net/tcp of a Debian 12 machine (kernel 6.x); the first row as captured, the others in
  // the same format with other addresses, states and inodes
  private static final String TCP = """
        sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
         0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1129 1 00000000768201bf 100 0 0 10 0
         1: 0100007F:4A38 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2201 1 0000000000000000 100 0 0 10 0
         2: 0100007F:4A38 0100007F:B2C4 01 00000000:00000000 00:00000000 00000000     0        0 2202 1 0000000000000000 20 4 30 10 -1
         3: 0F02000A:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2203 1 0000000000000000 100 0 0 10 0
      """;
  // /proc/net/tcp6: the first row's address as captured (an established v4-mapped loopback socket), in LISTEN state here
  private static final String TCP6 = """
        sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
         0: 0000000000000000FFFF00000100007F:9064 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 3301 1 0000000000000000 100 0 0 10 0
         1: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 3302 1 0000000000000000 100 0 0 10 0
         2: 00000000000000000000000001000000:3A98 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 3303 1 0000000000000000 100 0 0 10 0
         3: B80D0120000000000000000001000000:0016 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 3304 1 0000000000000000 100 0 0 10 0
      """;

  @Test
  void listenRowsAreParsedWithTheirAddressPortAndInode() {
    assertThat(ListeningSockets.parse(TCP, false)).containsExactly(
        new Row("0.0.0.0", 2024, 1129), new Row("127.0.0.1", 19000, 2201), new Row("10.0.2.15", 80, 2203));
    assertThat(ListeningSockets.parse(TCP6, true)).containsExactly(
        new Row("::ffff:127.0.0.1", 36964, 3301), new Row("::", 8080, 3302), new Row("::1", 15000, 3303),
        new Row("2001:db8::1", 22, 3304));
  }

  @Test
  void onlyLoopbackAddressesCountAsLoopback() {
    assertThat(List.of("127.0.0.1", "127.0.1.1", "::1", "::ffff:127.0.0.1"))
        .allMatch(a -> new Listener(1, "x", a, 1).loopback());
    assertThat(List.of("0.0.0.0", "::", "10.0.2.15", "::ffff:10.0.0.1", "2001:db8::1"))
        .noneMatch(a -> new Listener(1, "x", a, 1).loopback());
  }

  @Test
  void findsWhatThisProcessListensOn() throws Exception {
    try (ServerSocket loopback = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
         ServerSocket wildcard = new ServerSocket(0)) {
      List<Listener> mine = ListeningSockets.of(List.of(ProcessHandle.current().pid()));
      assertThat(mine).filteredOn(l -> l.port() == loopback.getLocalPort()).singleElement()
          .satisfies(l -> assertThat(l.loopback()).as(l.toString()).isTrue());
      assertThat(mine).filteredOn(l -> l.port() == wildcard.getLocalPort()).singleElement()
          .satisfies(l -> assertThat(l.loopback()).as(l.toString()).isFalse());
    }
  }
}
