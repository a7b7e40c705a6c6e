package io.fleetscope.sink.db;

import io.fleetscope.serde.Backoff;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits at start for a database that is not reachable or not accepting connections yet (not
 * listening, starting up, in recovery, shutting down), with capped exponential back-off, up to a
 * limit. Errors that waiting will not cure (bad password, unknown database, permission denied,
 * anything else) fail at once.
 */
public final class StartWait {
  private static final Logger log = LoggerFactory.getLogger(StartWait.class);

  /** Work done on a connection once it opens. */
  public interface Step<T> {
    T run(Connection c) throws SQLException;
  }

  /** Opens a connection. */
  public interface Opener {
    Connection open() throws SQLException;
  }

  /** How the wait sleeps and reads the clock (tests replace both). */
  public interface Clock {
    long nanoTime();

    void sleep(long millis) throws InterruptedException;

    Clock SYSTEM = new Clock() {
      @Override
      public long nanoTime() {
        return System.nanoTime();
      }

      @Override
      public void sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
      }
    };
  }

  /** The database refused the sink for a reason that waiting would not cure, or the wait ran out. */
  public static final class StartFailed extends SQLException {
    StartFailed(String message, SQLException cause) {
      super(message, cause.getSQLState(), cause);
    }
  }

  private final Backoff backoff;
  private final Duration limit;
  private final Clock clock;

  /**
   * @param limit how long to wait in all; zero: without limit
   */
  public StartWait(Backoff backoff, Duration limit, Clock clock) {
    this.backoff = backoff;
    this.limit = limit;
    this.clock = clock;
  }

  /**
   * Whether an error of opening (or using) a connection may go away by waiting: SQLSTATE 57P03
   * cannot_connect_now (starting up, shutting down, in recovery), 57P01/57P02 (the server was shut
   * down under the session), 53300 too_many_connections, and the connection errors of class 08
   * except 08004 (rejected, e.g. SSL not supported) and 08P01 (protocol violation). Everything else
   * is final: 28P01/28000 (authentication), 3D000 (no such database), 42501 (permission denied), ...
   */
  public static boolean isTransient(SQLException e) {
    String s = e.getSQLState();
    if (s == null) {
      return false;
    }
    return switch (s) {
      case "57P03", "57P01", "57P02", "53300" -> true;
      case "08004", "08P01" -> false;
      default -> s.startsWith("08");
    };
  }

  /**
   * Opens a connection of {@code db} and runs {@code step} on it, waiting out transient errors.
   * {@code what} names the step in messages (e.g. "migrations").
   */
  public <T> T run(Database db, String what, Step<T> step) throws SQLException, InterruptedException {
    return run(db.url(), db.user(), db::open, what, step);
  }

  /** {@link #run(Database, String, Step)} with connections from {@code opener}. */
  public <T> T run(String url, String user, Opener opener, String what, Step<T> step)
      throws SQLException, InterruptedException {
    long t0 = clock.nanoTime();
    String jdbc = withoutParameters(url);
    boolean waiting = false;
    for (int retry = 1; ; retry++) {
      try (Connection c = opener.open()) {
        T result = step.run(c);
        if (waiting) {
          log.info("sink database reachable jdbc={} user={} step={} waited_ms={} attempts={}", jdbc, user, what,
              elapsedMs(t0), retry);
        }
        return result;
      } catch (SQLException e) {
        String reason = reason(e);
        if (!isTransient(e)) {
          throw new StartFailed("database refused the sink, not retried: step=" + what + " jdbc=" + jdbc + " user="
              + user + " sqlstate=" + e.getSQLState() + " reason=\"" + reason + "\"", e);
        }
        long elapsed = elapsedMs(t0);
        long delay = backoff.delayMs(retry);
        if (!limit.isZero()) {
          long left = limit.toMillis() - elapsed;
          if (left <= 0) {
            throw new StartFailed("database not reachable after waiting " + elapsed / 1000 + " s (jdbc.start_wait_seconds="
                + limit.toSeconds() + "): step=" + what + " jdbc=" + jdbc + " user=" + user + " sqlstate="
                + e.getSQLState() + " reason=\"" + reason + "\"", e);
          }
          delay = Math.min(delay, left);
        }
        if (!waiting) {
          waiting = true;
          log.warn("sink waiting for database jdbc={} user={} step={} sqlstate={} reason=\"{}\" limit_s={}", jdbc,
              user, what, e.getSQLState(), reason, limit.isZero() ? "none" : limit.toSeconds());
        } else {
          log.debug("sink still waiting for database jdbc={} retry={} delay_ms={} sqlstate={} reason=\"{}\"", jdbc,
              retry, delay, e.getSQLState(), reason);
        }
        clock.sleep(delay);
      }
    }
  }

  private long elapsedMs(long t0) {
    return (clock.nanoTime() - t0) / 1_000_000;
  }

  /** The first line of the message, quotes replaced, for a key="value" log field. */
  static String reason(SQLException e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return (nl < 0 ? m : m.substring(0, nl)).replace('"', '\'').trim();
  }

  /** The JDBC URL without its parameters (which may hold a password), for logs. */
  public static String withoutParameters(String url) {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q);
  }
}
