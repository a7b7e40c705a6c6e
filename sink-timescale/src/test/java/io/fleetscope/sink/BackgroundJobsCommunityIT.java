package io.fleetscope.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.maintenance.BackgroundJobHealth;
import io.fleetscope.sink.service.SinkService;
import io.fleetscope.stack.services.LocalPostgres;
import io.fleetscope.stack.services.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * TimescaleDB's job scheduler runs the policies the sink installs on the community edition by
 * itself, and they succeed: a compression policy brought forward compresses a 3-day-old chunk
 * within a bound, its run is recorded as a success and job_errors stays empty. (TimescaleDB
 * 2.28.3 unpatched on PostgreSQL 15.20 fails every background job after its work is done:
 * deploy/local/timescaledb-patches.) Then a job that does fail is what the sink's start-up line
 * reports.
 */
class BackgroundJobsCommunityIT {
  static final Duration BOUND = Duration.ofSeconds(30);

  @Test
  void theSchedulerRunsTheSinksCompressionPolicyAndNoJobFails() throws Exception {
    Assumptions.assumeTrue(TestServices.communityEditionInstalled(), TestServices.COMMUNITY_MISSING);
    LocalPostgres pg = TestServices.postgresCommunity();
    String url = pg.createDatabase("sink_background_jobs");
    SinkConfig config = SinkConfig.of(Map.of(SinkConfig.JDBC_URL.name(), url, SinkConfig.JDBC_USER.name(), LocalPostgres.SUPERUSER,
        SinkConfig.METRICS_PORT.name(), "-1", SinkConfig.START_WAIT.name(), "10"));
    try (SinkService sink = new SinkService(config)) {
      assertThat(sink.migrate()).isEqualTo(Edition.COMMUNITY); // migrations and the policies, no Kafka
    }
    Instant h = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(3));
    List<GpuSample> rows = new ArrayList<>();
    for (int s = 0; s < 600; s++) {
      rows.add(SampleRecords.gpu("bgw", "bgw-n0", s % 8, h.plusSeconds(s).toEpochMilli(), s));
    }
    try (Connection c = java.sql.DriverManager.getConnection(url)) {
      DirectWriter.write(c, Topics.GPU, rows);
      assertThat(CommunityEditionIT.compressedChunks(c, "gpu_raw", h)).as("not compressed before the policy runs").isZero();
      long job = (Long) MaintenanceIT.rows(c, "SELECT job_id::bigint FROM timescaledb_information.jobs "
          + "WHERE proc_name = 'policy_compression' AND hypertable_name = 'gpu_raw'").get(0).get(0);
      c.setAutoCommit(true);
      // finished runs of the policy (the scheduler may have run it once already, before these rows)
      String finished = "SELECT coalesce((SELECT (total_successes + total_failures)::bigint FROM timescaledb_information.job_stats "
          + "WHERE job_id = " + job + " AND last_run_status IS NOT NULL), 0)";
      long before = (Long) MaintenanceIT.rows(c, finished).get(0).get(0);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT alter_job(" + job + ", next_start => now())"); // the scheduler's turn, not run_job
      }
      long t0 = System.nanoTime();
      SinkTestEnv.await("the scheduler to run the gpu_raw compression policy (job " + job + ") and compress the chunk", BOUND,
          SinkTestEnv.sql(() -> (Long) MaintenanceIT.rows(c, finished).get(0).get(0) > before
              && CommunityEditionIT.compressedChunks(c, "gpu_raw", h) == 1));
      System.out.printf("background compression job=%d ran within %d ms%n", job, (System.nanoTime() - t0) / 1_000_000);

      assertThat(MaintenanceIT.rows(c, "SELECT last_run_status, total_failures::bigint FROM timescaledb_information.job_stats "
          + "WHERE job_id = " + job)).as("the policy's runs").containsExactly(List.of("Success", 0L));
      assertThat(MaintenanceIT.rows(c, "SELECT job_id, proc_name, err_message FROM timescaledb_information.job_errors"))
          .as("no background job of this database failed").isEmpty();
      assertThat(CommunityEditionIT.compressedChunks(c, "gpu_raw", h)).as("compressed by the scheduler").isEqualTo(1);
      assertThat(BackgroundJobHealth.read(c).failing()).isFalse();

      // a job that fails: the sink's start-up report names it
      try (Statement s = c.createStatement()) {
        s.execute("CREATE PROCEDURE bgw_always_fails(job_id int, config jsonb) LANGUAGE plpgsql AS "
            + "$$ BEGIN RAISE EXCEPTION 'disk quota of the test'; END $$");
        s.execute("SELECT add_job('bgw_always_fails', '1 hour', initial_start => now())");
      }
      SinkTestEnv.await("the failing job's error", BOUND, SinkTestEnv.sql(() -> BackgroundJobHealth.read(c).errors() > 0));
      BackgroundJobHealth.Report r = BackgroundJobHealth.read(c);
      assertThat(r.failing()).isTrue();
      assertThat(r.jobs()).isEqualTo(1);
      assertThat(r.stillFailing()).isEqualTo(1);
      assertThat(r.lastJob()).isEqualTo("bgw_always_fails");
      assertThat(r.logLine()).matches("sink timescaledb background jobs failing errors_24h=[1-9][0-9]* jobs=1 still_failing=1 "
          + "last_job=bgw_always_fails .*").contains("last_error=\"disk quota of the test\"", "hint=\"policies may not run");
      try (Statement s = c.createStatement()) {
        s.execute("SELECT delete_job(job_id) FROM timescaledb_information.jobs WHERE proc_name = 'bgw_always_fails'");
      }
    }
  }
}
