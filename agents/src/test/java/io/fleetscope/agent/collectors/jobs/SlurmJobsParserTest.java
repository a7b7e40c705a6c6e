package io.fleetscope.agent.collectors.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.avro.GpuAllocation;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlurmJobsParserTest {
  @Test
  void prologEpilogFile() {
    List<GpuAllocation> a = SlurmAllocations.resolve(SlurmJobsParser.parseFile("""
        # JOBID GPUS USER PARTITION
        12345 0,1,2,3 alice train
        12346 4-7 bob
        """), null).allocations();
    assertThat(a).hasSize(2);
    assertThat(a.get(0).getJob()).isEqualTo("12345");
    assertThat(a.get(0).getGpus()).containsExactly(0, 1, 2, 3);
    assertThat(a.get(0).getPartition()).isEqualTo("train");
    assertThat(a.get(1).getGpus()).containsExactly(4, 5, 6, 7);
    assertThat(a.get(1).getUser()).isEqualTo("bob");
    assertThat(a.get(1).getPartition()).isNull();
  }

  @Test
  void badLinesNameTheLine() {
    assertThatThrownBy(() -> SlurmJobsParser.parseFile("12345\n")).hasMessageContaining("line 1");
    assertThatThrownBy(() -> SlurmJobsParser.parseFile("1 0\n2 7-3\n")).hasMessageContaining("line 2").hasMessageContaining("7-3");
  }

  @Test
  void squeueFormat() {
    List<GpuAllocation> a = SlurmAllocations.resolve(
        SlurmJobsParser.parseSqueue("777|carol|batch|gres/gpu:4(IDX:0-3)\n778|dave|batch|gres/gpu:2\n"), null).allocations();
    assertThat(a.get(0).getGpus()).containsExactly(0, 1, 2, 3);
    assertThat(a.get(1).getGpus()).as("count only: indices unknown").isEmpty();
    assertThat(a.get(1).getUser()).isEqualTo("dave");
  }
}
