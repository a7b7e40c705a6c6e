package io.fleetscope.sink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class BackgroundJobHealthTest {
  /** The server log line of a community-edition test cluster (TimescaleDB 2.28.3, PostgreSQL 15.20). */
  static final String PORTAL_ERROR = "cannot drop portal \"\" while it is being set up";

  @Test
  void theKnownCauseGetsItsCure() {
    BackgroundJobHealth.Report r = new BackgroundJobHealth.Report(13, 5, 5, "policy_compression:gpu_raw", PORTAL_ERROR,
        Instant.parse("2026-12-05T14:10:52Z"));
    assertThat(r.failing()).isTrue();
    assertThat(r.logLine()).isEqualTo("sink timescaledb background jobs failing errors_24h=13 jobs=5 still_failing=5 "
        + "last_job=policy_compression:gpu_raw last_at=2026-12-05T14:10:52Z last_error=\"cannot drop portal '' while it is being set up\" "
        + "hint=\"TimescaleDB 2.28.3 on PostgreSQL 15.20 or later: the policies run but are recorded as failed; "
        + "rerun deploy/local/install.sh (patched build) and restart PostgreSQL\"");
  }

  @Test
  void aJobStillFailingWithItsErrorsOutsideTheWindowIsReported() {
    BackgroundJobHealth.Report r = new BackgroundJobHealth.Report(0, 0, 1, null, null, null);
    assertThat(r.failing()).isTrue();
    assertThat(r.logLine()).isEqualTo("sink timescaledb background jobs failing errors_24h=0 jobs=0 still_failing=1 "
        + "hint=\"policies may not run: see timescaledb_information.job_errors and the PostgreSQL log\"");
    assertThat(BackgroundJobHealth.Report.NONE.failing()).isFalse();
  }
}
