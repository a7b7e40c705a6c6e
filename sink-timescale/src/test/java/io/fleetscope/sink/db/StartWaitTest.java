package io.fleetscope.sink.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.serde.Backoff;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartWaitTest {
  static final String URL = "jdbc:postgresql://127.0.0.1:1/db?password=secret";

  /** A clock that advances only when the wait sleeps. */
  static final class FakeClock implements StartWait.Clock {
    long nanos;
    final List<Long> sleeps = new ArrayList<>();

    @Override
    public long nanoTime() {
      return nanos;
    }

    @Override
    public void sleep(long millis) {
      sleeps.add(millis);
      nanos += millis * 1_000_000;
    }
  }

  static Connection stubConnection() {
    return (Connection) Proxy.newProxyInstance(StartWaitTest.class.getClassLoader(), new Class<?>[] {Connection.class},
        (p, m, a) -> null);
  }

  /** Fails with the given SQLSTATEs in turn, then connects. */
  static StartWait.Opener failing(String... states) {
    Deque<String> q = new ArrayDeque<>(List.of(states));
    return () -> {
      String s = q.poll();
      if (s != null) {
        throw new SQLException("FATAL: failure " + s + "\n  detail", s);
      }
      return stubConnection();
    };
  }

  static StartWait wait(FakeClock clock, Duration limit) {
    return new StartWait(new Backoff(Duration.ofMillis(100), Duration.ofMillis(1000)), limit, clock);
  }

  @Test
  void connectionErrorsAndNotAcceptingConnectionsYetAreTransient() {
    for (String s : List.of("08001", "08006", "08003", "57P03", "57P01", "57P02", "53300")) {
      assertThat(StartWait.isTransient(new SQLException("x", s))).as(s).isTrue();
    }
  }

  @Test
  void authenticationUnknownDatabasePermissionAndTheRestAreFinal() {
    for (String s : List.of("28P01", "28000", "3D000", "42501", "08004", "08P01", "42P01", "XX000")) {
      assertThat(StartWait.isTransient(new SQLException("x", s))).as(s).isFalse();
    }
    assertThat(StartWait.isTransient(new SQLException("no state"))).isFalse();
  }

  @Test
  void waitsOutTransientErrorsWithCappedExponentialBackoff() throws Exception {
    FakeClock clock = new FakeClock();
    String r = wait(clock, Duration.ofSeconds(300)).run(URL, "u",
        failing("08001", "57P03", "57P03", "08006", "57P03", "57P03"), "migrations", c -> "ran");
    assertThat(r).isEqualTo("ran");
    assertThat(clock.sleeps).containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L);
  }

  @Test
  void aFinalErrorFailsAtOnceNamingTheStateWithoutTheUrlParameters() {
    FakeClock clock = new FakeClock();
    assertThatThrownBy(() -> wait(clock, Duration.ZERO).run(URL, "u", failing("08001", "3D000"), "migrations", c -> 1))
        .isInstanceOf(StartWait.StartFailed.class)
        .hasMessageContaining("not retried")
        .hasMessageContaining("sqlstate=3D000")
        .hasMessageContaining("jdbc=jdbc:postgresql://127.0.0.1:1/db ")
        .hasMessageContaining("reason=\"FATAL: failure 3D000\"")
        .hasMessageNotContaining("secret");
    assertThat(clock.sleeps).containsExactly(100L);
  }

  @Test
  void theLimitEndsTheWait() {
    FakeClock clock = new FakeClock();
    String[] forever = new String[100];
    java.util.Arrays.fill(forever, "57P03");
    assertThatThrownBy(() -> wait(clock, Duration.ofSeconds(3)).run(URL, "u", failing(forever), "migrations", c -> 1))
        .isInstanceOf(StartWait.StartFailed.class)
        .hasMessageContaining("not reachable after waiting 3 s (jdbc.start_wait_seconds=3)")
        .hasMessageContaining("sqlstate=57P03");
    // 100+200+400+800+1000 = 2500, then the last sleep is cut to what is left of the 3 s
    assertThat(clock.sleeps).containsExactly(100L, 200L, 400L, 800L, 1000L, 500L);
  }

  @Test
  void zeroWaitsWithoutLimit() throws Exception {
    FakeClock clock = new FakeClock();
    String[] many = new String[50];
    java.util.Arrays.fill(many, "08001");
    int r = wait(clock, Duration.ZERO).run(URL, "u", failing(many), "migrations", c -> 7);
    assertThat(r).isEqualTo(7);
    assertThat(clock.sleeps).hasSize(50);
  }

  @Test
  void anErrorOfTheStepIsClassifiedLikeOneOfConnecting() throws Exception {
    FakeClock clock = new FakeClock();
    int[] calls = {0};
    int r = wait(clock, Duration.ofSeconds(10)).run(URL, "u", failing(), "migrations", c -> {
      if (calls[0]++ == 0) {
        throw new SQLException("FATAL: terminating connection due to administrator command", "57P01");
      }
      return calls[0];
    });
    assertThat(r).isEqualTo(2);
    assertThatThrownBy(() -> wait(clock, Duration.ofSeconds(10)).run(URL, "u", failing(), "migrations", c -> {
      throw new SQLException("ERROR: permission denied for schema public", "42501");
    })).hasMessageContaining("sqlstate=42501");
  }
}
