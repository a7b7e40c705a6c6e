package io.fleetscope.agent.collectors.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.collectors.gpu.MigLayout;
import io.fleetscope.agent.testing.TestData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The order of a node's GPU GRES indexes. The premise: Slurm sorts its MIG GRES records by their
 * device files in natural order, and that order is (GPU minor, GPU instance, compute instance). It
 * is checked on a real slurmd log of autodetected MIG devices (fixtures/slurm/deepops-1214-*.log,
 * printed by Slurm 21.08 in descending natural file order, its _sort_gpu_by_file_desc).
 */
class SlurmGresOrderTest {
  private static final Pattern RECORD = Pattern.compile("File:(/dev/nvidia(\\d+),\\S+) UniqueId:MIG-(GPU-[0-9a-f-]+)/(\\d+)/(\\d+)");

  record Logged(String file, int minor, String gpuUuid, int gi, int ci) {}

  static List<Logged> logged() {
    List<Logged> out = new ArrayList<>();
    for (String line : TestData.read("slurm/deepops-1214-slurmd-autodetect-mig.txt").lines().toList()) {
      Matcher m = RECORD.matcher(line);
      if (m.find()) {
        out.add(new Logged(m.group(1), Integer.parseInt(m.group(2)), m.group(3), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5))));
      }
    }
    return out;
  }

  /** Natural order as Slurm's strnatcmp has it for these strings: digit runs compare as numbers. */
  static final Comparator<String> NATURAL = (a, b) -> {
    Matcher x = Pattern.compile("\\d+|\\D+").matcher(a);
    Matcher y = Pattern.compile("\\d+|\\D+").matcher(b);
    while (x.find() && y.find()) {
      String p = x.group();
      String q = y.group();
      int c = Character.isDigit(p.charAt(0)) && Character.isDigit(q.charAt(0)) ? Long.compare(Long.parseLong(p), Long.parseLong(q)) : p.compareTo(q);
      if (c != 0) return c;
    }
    return Integer.compare(a.length(), b.length());
  };

  @Test
  void theRealLogIsInDescendingNaturalFileOrderSoTheComparatorIsSlurms() {
    List<String> files = logged().stream().map(Logged::file).toList();
    assertThat(files).hasSize(5);
    List<String> excerpt1 = files.subList(0, 4); // the consecutive lines of GPU minor 1
    assertThat(excerpt1).isSortedAccordingTo(NATURAL.reversed());
    assertThat(excerpt1).as("not plain string order: cap84 after cap102").isNotEqualTo(excerpt1.stream().sorted(Comparator.reverseOrder()).toList());
  }

  @Test
  void naturalFileOrderIsGpuMinorThenGpuInstanceAndTheSlotsFollowIt() {
    List<Logged> records = logged();
    List<Logged> byFile = new ArrayList<>(records);
    byFile.sort(Comparator.comparing(Logged::file, NATURAL));

    // the same devices as the agent sees them: GPU index = minor here, GI and CI from the ids
    Map<String, List<MigLayout.Device>> perGpu = new LinkedHashMap<>();
    Map<String, Integer> minors = new LinkedHashMap<>();
    for (Logged r : records) {
      perGpu.computeIfAbsent(r.gpuUuid(), u -> new ArrayList<>()).add(new MigLayout.Device(r.minor(), r.gi(), r.ci(), null, null, null));
      minors.put(r.gpuUuid(), r.minor());
    }
    List<MigLayout.Gpu> gpus = new ArrayList<>();
    perGpu.forEach((uuid, devices) -> gpus.add(new MigLayout.Gpu(minors.get(uuid), minors.get(uuid), uuid, devices)));
    List<SlurmGresOrder.Slot> slots = SlurmGresOrder.slots(new MigLayout(gpus));

    assertThat(slots).extracting(s -> s.gpu() + "/" + s.mig().gpuInstanceId())
        .containsExactlyElementsOf(byFile.stream().map(r -> r.minor() + "/" + r.gi()).toList())
        .containsExactly("1/9", "1/10", "1/11", "1/12", "2/9");
  }

  @Test
  void wholeGpusComeFirstThenMigDevicesByGpuInstance() throws Exception {
    // the netdata A100 capture: one GPU in MIG mode with GPU instances 1 and 2
    MigLayout a100 = MigLayout.parse(TestData.read("nvidia-smi/netdata-a100-sxm4-mig.xml"), null);
    assertThat(a100.gpus()).singleElement().satisfies(g -> {
      assertThat(g.minor()).isZero();
      assertThat(g.migMode()).isTrue();
    });
    assertThat(SlurmGresOrder.slots(a100)).extracting(s -> s.mig().gpuInstanceId()).containsExactly(1, 2);

    MigLayout mixed = new MigLayout(List.of(
        new MigLayout.Gpu(0, 0, "GPU-a", List.of(new MigLayout.Device(0, 2, 0, 0, null, null), new MigLayout.Device(0, 1, 0, 1, null, null))),
        new MigLayout.Gpu(1, 1, "GPU-b", List.of())));
    assertThat(SlurmGresOrder.slots(mixed)).extracting(s -> s.mig() == null ? "gpu" + s.gpu() : s.gpu() + "/gi" + s.mig().gpuInstanceId())
        .containsExactly("gpu1", "0/gi1", "0/gi2");
  }
}
