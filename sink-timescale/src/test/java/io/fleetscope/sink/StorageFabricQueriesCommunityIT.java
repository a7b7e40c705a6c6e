package io.fleetscope.sink;

import io.fleetscope.sink.db.Edition;
import io.fleetscope.sink.db.Migrator;
import io.fleetscope.stack.services.TestServices;
import java.sql.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The storage-tiers and fabric-config queries of {@link StorageFabricQueriesIT}, with the same data and
 * answers, on TimescaleDB's community edition (storage compressed, V022). Skips when the community
 * build is missing.
 */
class StorageFabricQueriesCommunityIT extends StorageFabricQueriesIT {
  @BeforeAll
  static void setUp() throws Exception {
    env = null; // the field is StorageFabricQueriesIT's: never close its environment a second time
    Assumptions.assumeTrue(TestServices.communityEditionInstalled(), TestServices.COMMUNITY_MISSING);
    env = new SinkTestEnv("sink_storage_fabric_queries_community", true);
    try (Connection c = env.connect()) {
      Migrator.migrate(c);
      if (Edition.detect(c) != Edition.COMMUNITY) {
        throw new IllegalStateException("expected the community edition, got " + Edition.detect(c));
      }
      seed(c);
    }
  }

  @AfterAll
  static void tearDown() {
    if (env != null) {
      env.close();
    }
  }
}
