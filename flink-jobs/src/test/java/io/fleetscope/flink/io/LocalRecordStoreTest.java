package io.fleetscope.flink.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.testing.Runs;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.junit.jupiter.api.Test;

class LocalRecordStoreTest {

  @Test
  void aReleasedHandleNamesWhyItsRecordsAreGone() {
    String h = LocalRecordStore.hold(List.of());
    assertThat(LocalRecordStore.get(h)).isEmpty();
    LocalRecordStore.release(h);
    assertThatThrownBy(() -> LocalRecordStore.get(h))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("only on a local MiniCluster");
  }

  @Test
  void aFinishedRunHoldsNoRecords() throws Exception {
    List<SpecificRecord> input = List.of();
    int before = LocalRecordStore.held();
    Runs.run(input, AnalyticsConfig.defaults(), io.fleetscope.flink.AnalyticCatalog.all(), RuntimeExecutionMode.BATCH);
    assertThat(LocalRecordStore.held()).isEqualTo(before);
  }
}
