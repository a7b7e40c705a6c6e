package io.fleetscope.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.Topics;
import io.fleetscope.sink.SinkConfig;
import org.junit.jupiter.api.Test;

/** docs/sizing.md's table is what its inputs give, and the inputs that come from the code agree with it. */
class SizingTableTest {
  @Test
  void everyCellFollowsFromTheInputs() throws Exception {
    SizingTable t = SizingTable.read();
    assertThat(t.rows()).hasSize(22);
    for (int n : t.gpus()) {
      assertThat(t.column(n).values()).as(n + " GPUs").isEqualTo(t.compute(n).values());
    }
  }

  @Test
  void theInputsTakenFromTheCodeAreTheCodes() throws Exception {
    SizingTable t = SizingTable.read();
    assertThat((int) t.in("min_partitions")).isEqualTo(Topics.PARTITIONS);
    assertThat((long) t.in("retention_days")).isEqualTo(Topics.RETENTION.toDays());
    assertThat((int) t.in("workers_per_sink_replica")).isEqualTo(Integer.parseInt(SinkConfig.WORKERS.defaultValue()));
  }

  @Test
  void aChangedInputChangesTheTable() throws Exception {
    SizingTable t = SizingTable.read();
    t.inputs().put("analytics_us_per_record", t.in("analytics_us_per_record") * 2);
    assertThat(t.compute(100_000).values()).isNotEqualTo(t.column(100_000).values());
  }
}
