package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.GpuAllocation;
import io.fleetscope.avro.JobAllocations;
import java.util.List;
import io.fleetscope.flink.testing.MapBroadcastState;
import org.junit.jupiter.api.Test;

/** Job allocations read as of a time: what a tick sees does not depend on what arrived after it. */
class TopologyAsOfTest {

  private final MapBroadcastState<String, io.fleetscope.avro.InventoryRecord> inv = new MapBroadcastState<>();
  private final MapBroadcastState<String, JobAllocations> jobs = new MapBroadcastState<>();
  private long seq;

  private void allocate(String node, long ts, String job) throws Exception {
    Topology.apply(JobAllocations.newBuilder().setTs(ts).setCluster("c1").setNode(node).setAgentSeq(++seq).setSource("test")
        .setAllocations(job == null ? List.of() : List.of(GpuAllocation.newBuilder().setJob(job)
            .setGpus(List.of(0, 1, 2, 3, 4, 5, 6, 7)).setUser("u").setPartition("p").build()))
        .build(), inv, jobs);
  }

  private String jobAt(String node, long ts) {
    return new Topology(inv, jobs).asOf(ts).jobOf(node, 0).orElse("-");
  }

  @Test
  void aTickBeforeAJobStopsStillSeesTheJobEvenWhenTheStopArrivedFirst() throws Exception {
    // a bounded run applies the whole broadcast input before the first tick
    allocate("n1", 1_000, "job-a");
    allocate("n1", 5_000, null); // the job stops
    allocate("n1", 9_000, "job-b"); // another starts
    assertThat(jobAt("n1", 999)).isEqualTo("job-a"); // before the first record: the oldest one known
    assertThat(jobAt("n1", 4_999)).isEqualTo("job-a");
    assertThat(jobAt("n1", 5_000)).isEqualTo("-");
    assertThat(jobAt("n1", 8_999)).isEqualTo("-");
    assertThat(jobAt("n1", 9_000)).isEqualTo("job-b");
    assertThat(new Topology(inv, jobs).jobOf("n1", 0)).contains("job-b"); // no time: the newest
  }

  @Test
  void theOrderRecordsArriveInDoesNotMatter() throws Exception {
    // a bounded run reads a topic in parallel ranges: the stop may arrive before the start
    allocate("n1", 5_000, null);
    allocate("n1", 9_000, "job-b");
    allocate("n1", 1_000, "job-a");
    allocate("n1", 3_000, "job-a"); // the same allocation published again
    assertThat(jobAt("n1", 2_000)).isEqualTo("job-a");
    assertThat(jobAt("n1", 4_999)).isEqualTo("job-a");
    assertThat(jobAt("n1", 6_000)).isEqualTo("-");
    assertThat(jobAt("n1", 9_500)).isEqualTo("job-b");
  }

  @Test
  void aRestartThatArrivesBeforeTheStopItFollowsIsKept() throws Exception {
    // the soak's job-003: running from 0, stopped at 22.5 min, started again at 48.5 min; the
    // restart came first, then the snapshot's record, then the stop
    allocate("n1", 2_910_000, "job-003");
    allocate("n1", 0, "job-003");
    allocate("n1", 1_350_000, null);
    assertThat(jobAt("n1", 600_000)).isEqualTo("job-003");
    assertThat(jobAt("n1", 2_000_000)).isEqualTo("-");
    assertThat(jobAt("n1", 3_120_000)).isEqualTo("job-003");
  }

  @Test
  void republishingTheSameAllocationKeepsTheHistoryForChanges() throws Exception {
    allocate("n1", 1_000, "job-a");
    allocate("n1", 2_000, null);
    for (long ts = 3_000; ts < 100_000; ts += 1_000) {
      allocate("n1", ts, "job-b"); // an agent republishing its allocation every round
    }
    assertThat(jobAt("n1", 1_500)).isEqualTo("job-a");
    assertThat(jobAt("n1", 2_500)).isEqualTo("-");
    assertThat(jobAt("n1", 50_000)).isEqualTo("job-b");
  }

  @Test
  void theHistoryIsBoundedAndTheOldestChangesGoFirst() throws Exception {
    for (int i = 0; i < 20; i++) {
      allocate("n1", 1_000L * (i + 1), "job-" + i);
    }
    assertThat(jobs.m).hasSize(1 + Topology.HISTORY);
    assertThat(jobAt("n1", 20_000)).isEqualTo("job-19");
    assertThat(jobAt("n1", 12_500)).isEqualTo("job-11");
    // older than the history: the oldest change it kept
    assertThat(jobAt("n1", 2_000)).isEqualTo("job-" + (19 - Topology.HISTORY));
    assertThat(new Topology(inv, jobs).asOf(12_500).allJobs()).singleElement()
        .satisfies(e -> assertThat(e.getKey()).isEqualTo("n1"))
        .satisfies(e -> assertThat(e.getValue().getAllocations().get(0).getJob()).isEqualTo("job-11"));
  }
}
