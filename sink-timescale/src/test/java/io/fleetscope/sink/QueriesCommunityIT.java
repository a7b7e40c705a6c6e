package io.fleetscope.sink;

import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.sink.maintenance.Rollups;
import io.fleetscope.stack.services.TestServices;
import java.sql.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every named query of {@link QueriesIT}, with the same scenarios and the same expected answers,
 * on TimescaleDB's community edition: rail rollups from continuous aggregates, compression
 * settings on every raw, derived and rollup hypertable. Skips when the community build is missing.
 */
class QueriesCommunityIT extends QueriesIT {
  @BeforeAll
  static void setUp() throws Exception {
    env = null; // the field is QueriesIT's: never close its environment a second time
    Assumptions.assumeTrue(TestServices.communityEditionInstalled(), TestServices.COMMUNITY_MISSING);
    env = new SinkTestEnv("sink_queries_community", true);
    try (Connection c = env.connect()) {
      Migrator.migrate(c);
      if (Edition.detect(c) != Edition.COMMUNITY) {
        throw new IllegalStateException("expected the community edition, got " + Edition.detect(c));
      }
      seed(c);
      Rollups.forEdition(Edition.COMMUNITY, SinkConfig.defaults()).refresh(c);
    }
  }

  @AfterAll
  static void tearDown() {
    if (env != null) {
      env.close();
    }
  }
}
