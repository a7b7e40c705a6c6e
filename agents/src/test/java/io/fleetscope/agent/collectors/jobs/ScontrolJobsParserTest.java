package io.fleetscope.agent.collectors.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.testing.TestData;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code scontrol -d show job}: the irush-cs/slurm-scripts test output (fixtures/slurm, a real
 * multi-line listing of Slurm 18-era with {@code GRES_IDX=}), and Slurm's own expected node line.
 */
class ScontrolJobsParserTest {
  static final String IRUSH = TestData.read("slurm/irush-cs-scontrol-show-job-d.txt");

  @Test
  void theRunningGpuJobOfTheNodeWithEveryIndex() {
    List<SlurmJobsParser.SlurmJob> jobs = ScontrolJobsParser.parse(IRUSH, "node-06");
    assertThat(jobs).singleElement().satisfies(j -> {
      assertThat(j.job()).isEqualTo("153291");
      assertThat(j.user()).isEqualTo("user3");
      assertThat(j.partition()).isEqualTo("medium");
      assertThat(SlurmGres.indexes(j.gres(), "gpu")).containsExactly(0, 2, 3, 5);
      assertThat(j.gres().get(0).count()).isEqualTo(4);
    });
  }

  @Test
  void aJobOnARangeOfNodesIsOnEachCompletedAndPendingJobsAreNot() {
    assertThat(ScontrolJobsParser.parse(IRUSH, "node-64")).singleElement().satisfies(j -> {
      assertThat(j.job()).isEqualTo("1");
      assertThat(j.gres()).isEmpty();
    });
    assertThat(ScontrolJobsParser.parse(IRUSH, "node-44")).as("job 2398617 is COMPLETED").isEmpty();
    assertThat(ScontrolJobsParser.parse(IRUSH, "newt")).isEmpty();
  }

  @Test
  void oneLineFormatWithSeveralNodeGroups() {
    // the two expected node lines of Slurm's testsuite/python/tests/test_105_7.py, in -o form
    String line = "JobId=7 JobName=x UserId=u(1) JobState=RUNNING Partition=p NodeList=74dc179a_n[1-2] "
        + "Nodes=74dc179a_n1 CPU_IDs=0-1 Mem=150 GRES=gpu:2(IDX:0-1) Nodes=74dc179a_n2 CPU_IDs=0-1 Mem=150 GRES=gpu:1(IDX:0) "
        + "Command=/home/u/my job.sh\n";
    assertThat(ScontrolJobsParser.parse(line, "74dc179a_n1")).singleElement()
        .satisfies(j -> assertThat(SlurmGres.indexes(j.gres(), "gpu")).containsExactly(0, 1));
    assertThat(ScontrolJobsParser.parse(line, "74dc179a_n2")).singleElement()
        .satisfies(j -> assertThat(SlurmGres.indexes(j.gres(), "gpu")).containsExactly(0));
  }

  @Test
  void hostLists() {
    assertThat(Hostlist.expand("node-[63-65]")).containsExactly("node-63", "node-64", "node-65");
    assertThat(Hostlist.expand("gpu[008-010,12],cpu3")).containsExactly("gpu008", "gpu009", "gpu010", "gpu12", "cpu3");
    assertThat(Hostlist.expand("(null)")).isEmpty();
    assertThat(Hostlist.contains("gpu[008-010,12],cpu3", "gpu009")).isTrue();
    assertThat(Hostlist.contains("gpu[008-010,12],cpu3", "gpu9")).as("padding").isFalse();
    assertThat(Hostlist.contains("gpu[008-010,12],cpu3", "gpu12")).isTrue();
    assertThat(Hostlist.contains("gpu[008-010,12],cpu3", "cpu3")).isTrue();
    assertThat(Hostlist.contains("gpu[0-99999999999]", "gpu5")).as("a wide range is not expanded").isTrue();
    assertThat(Hostlist.contains("node-[63-65]", "node-66")).isFalse();
    assertThatThrownBy(() -> Hostlist.expand("gpu[3-1]")).hasMessageContaining("3-1");
    assertThatThrownBy(() -> Hostlist.expand("gpu[1-2")).hasMessageContaining("no ]");
  }
}
