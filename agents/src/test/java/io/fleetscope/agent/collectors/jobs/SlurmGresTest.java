package io.fleetscope.agent.collectors.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.agent.testing.TestData;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GRES strings as Slurm prints them (fixtures/slurm, origins in fixtures/SOURCES.md). */
class SlurmGresTest {
  static final List<String> SLURM = TestData.read("slurm/slurm-gres-strings.txt").lines().toList();

  @Test
  void theDetailLineOfScontrolShowJobNamesEachIndex() {
    String detail = SLURM.get(0); // Nodes=74dc179a_n2 CPU_IDs=0-1 Mem=150 GRES=gpu:1(IDX:0)
    List<SlurmGres.Entry> e = SlurmGres.parse(detail.substring(detail.indexOf("GRES=") + 5));
    assertThat(e).singleElement().satisfies(x -> {
      assertThat(x.name()).isEqualTo("gpu");
      assertThat(x.type()).isNull();
      assertThat(x.count()).isEqualTo(1);
      assertThat(x.indexes()).containsExactly(0);
      assertThat(x.isMig()).isFalse();
    });
  }

  @Test
  void everyIndexOfARangeAndListIsRead() {
    List<SlurmGres.Entry> e = SlurmGres.parse(SLURM.get(1)); // gpu:4(IDX:0-1,3-4)
    assertThat(e).singleElement().satisfies(x -> {
      assertThat(x.count()).isEqualTo(4);
      assertThat(x.indexes()).containsExactly(0, 1, 3, 4);
    });
  }

  @Test
  void typedEntriesWithNoIndexAndSharedOrSocketPartsGiveNoIndex() {
    assertThat(SlurmGres.parse(SLURM.get(2))).extracting(SlurmGres.Entry::type, SlurmGres.Entry::count, e -> e.indexes().size())
        .containsExactly(org.assertj.core.groups.Tuple.tuple("fake1", 0L, 0), org.assertj.core.groups.Tuple.tuple("fake2", 0L, 0));
    List<SlurmGres.Entry> shard = SlurmGres.parse(SLURM.get(3)); // gpu:1(IDX:0),shard:8(-/5,5/5,3/5,0/5)
    assertThat(shard).extracting(SlurmGres.Entry::name).containsExactly("gpu", "shard");
    assertThat(shard.get(1).count()).isEqualTo(8);
    assertThat(shard.get(1).indexes()).isEmpty();
    assertThat(SlurmGres.indexes(shard, "gpu")).containsExactly(0);
    assertThat(SlurmGres.parse(SLURM.get(4))).allSatisfy(x -> assertThat(x.indexes()).isEmpty()); // (S:0)
  }

  @Test
  void aMigTypeIsToldFromAGpuModelType() {
    // a node with two whole H100s and two 4g.40gb MIG devices, Slurm's autodetected type names
    List<SlurmGres.Entry> node = SlurmGres.parse(TestData.read("slurm/stackhpc-656-node-gres.txt").strip());
    assertThat(node).extracting(SlurmGres.Entry::type).containsExactly("nvidia_h100_80gb_hbm3", "nvidia_h100_80gb_hbm3_4g.40gb");
    assertThat(node).extracting(SlurmGres.Entry::isMig).containsExactly(false, true);
    assertThat(node.get(1).profile()).isEqualTo("4g.40gb");
    assertThat(new SlurmGres.Entry("gpu", "1c.3g.71gb", 1, List.of()).profile()).isEqualTo("1c.3g.71gb");
    assertThat(new SlurmGres.Entry("gpu", "a100.MIG.20gb", 1, List.of()).isMig()).as("a site's own MIG type name").isTrue();
  }

  /**
   * A job's GRES on a MIG node as scontrol prints it: reconstructed from Slurm's format
   * (src/stepmgr/gres_stepmgr.c, "%s%s:%lu(IDX:%s)", entries joined by ",") with the type names of
   * the stackhpc node above; not a capture.
   */
  @Test
  void severalTypedEntriesWithCommasInsideTheirIndexListsAreSplitRight() {
    List<SlurmGres.Entry> e = SlurmGres.parse("gpu:nvidia_h100_80gb_hbm3_4g.40gb:2(IDX:2-3),gpu:nvidia_h100_80gb_hbm3:2(IDX:0,1)");
    assertThat(e).hasSize(2);
    assertThat(e.get(0).indexes()).containsExactly(2, 3);
    assertThat(e.get(0).isMig()).isTrue();
    assertThat(e.get(1).indexes()).containsExactly(0, 1);
    assertThat(SlurmGres.indexes(e, "gpu")).containsExactly(2, 3, 0, 1);
    assertThat(SlurmGres.parse("gres/gpu:4")).singleElement().satisfies(x -> assertThat(x.count()).isEqualTo(4));
    assertThat(SlurmGres.parse("gres:gpu:a100:2")).singleElement().satisfies(x -> assertThat(x.type()).isEqualTo("a100"));
    assertThat(SlurmGres.parse("gpu(CNT:2)")).singleElement().satisfies(x -> assertThat(x.count()).isEqualTo(2));
    assertThat(SlurmGres.parse("(null)")).isEmpty();
    assertThat(SlurmGres.parse("N/A")).isEmpty();
  }

  @Test
  void badGresNamesTheString() {
    assertThatThrownBy(() -> SlurmGres.parse("gpu:a100:x(IDX:0)")).hasMessageContaining("gpu:a100:x(IDX:0)").hasMessageContaining("not a number");
    assertThatThrownBy(() -> SlurmGres.parse("gpu:1(IDX:0")).hasMessageContaining("unbalanced");
    assertThatThrownBy(() -> SlurmGres.parse("gpu:1(IDX:3-1)")).hasMessageContaining("3-1");
  }
}
