package io.fleetscope.sink.maintenance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * Community edition: whether TimescaleDB's background jobs (the compression, retention and
 * continuous-aggregate refresh policies the sink installs, and TimescaleDB's own jobs) fail. They
 * run in the database's job scheduler, not in the sink, so a failing job otherwise shows only in
 * the server's log and in {@code timescaledb_information.job_errors}; the sink reads that view at
 * start and says it in one line ({@link Report#logLine}).
 */
public final class BackgroundJobHealth {
  /** How far back job errors count at start: older ones may have been cured since. */
  public static final Duration WINDOW = Duration.ofHours(24);

  /**
   * What the job history says.
   *
   * @param errors job errors in the window
   * @param jobs distinct jobs among them
   * @param stillFailing jobs whose last run failed (timescaledb_information.job_stats)
   * @param lastJob the job of the latest error, {@code proc_name:hypertable} (or the proc alone)
   * @param lastError the latest error's message
   * @param lastAt when the latest error's run finished
   */
  public record Report(long errors, long jobs, long stillFailing, String lastJob, String lastError, Instant lastAt) {
    public static final Report NONE = new Report(0, 0, 0, null, null, null);

    public boolean failing() {
      return errors > 0 || stillFailing > 0;
    }

    /** The operator's line: what failed, how often, the latest message, and what to do. */
    public String logLine() {
      StringBuilder b = new StringBuilder("sink timescaledb background jobs failing errors_")
          .append(WINDOW.toHours()).append("h=").append(errors).append(" jobs=").append(jobs).append(" still_failing=").append(stillFailing);
      if (lastError != null) {
        b.append(" last_job=").append(lastJob).append(" last_at=").append(lastAt)
            .append(" last_error=\"").append(lastError.replace("\"", "'")).append('"');
      }
      return b.append(" hint=\"").append(hint(lastError)).append('"').toString();
    }
  }

  /** What to do about an error message; a known cause gets its cure. */
  static String hint(String message) {
    if (message != null && message.toLowerCase(Locale.ROOT).contains("while it is being set up")) {
      return "TimescaleDB 2.28.3 on PostgreSQL 15.20 or later: the policies run but are recorded as failed;"
          + " rerun deploy/local/install.sh (patched build) and restart PostgreSQL";
    }
    return "policies may not run: see timescaledb_information.job_errors and the PostgreSQL log";
  }

  private static final String SQL = "WITH e AS (SELECT x.job_id, x.proc_name, j.hypertable_name, x.err_message, x.finish_time "
      + "FROM timescaledb_information.job_errors x LEFT JOIN timescaledb_information.jobs j ON j.job_id = x.job_id "
      + "WHERE x.finish_time > now() - make_interval(secs => ?)) "
      + "SELECT (SELECT count(*) FROM e), (SELECT count(DISTINCT job_id) FROM e), "
      + "(SELECT count(*) FROM timescaledb_information.job_stats WHERE last_run_status = 'Failed'), "
      + "l.proc_name || coalesce(':' || l.hypertable_name, ''), l.err_message, l.finish_time "
      + "FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM e ORDER BY finish_time DESC LIMIT 1) l ON true";

  private BackgroundJobHealth() {}

  /** The job history of this database (community edition only: the views need the extension's TSL part). */
  public static Report read(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(SQL)) {
      p.setLong(1, WINDOW.toSeconds());
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        java.sql.Timestamp at = rs.getTimestamp(6);
        return new Report(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getString(5),
            at == null ? null : at.toInstant());
      }
    }
  }
}
