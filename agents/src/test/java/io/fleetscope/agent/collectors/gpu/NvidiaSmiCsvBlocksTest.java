package io.fleetscope.agent.collectors.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.testing.TestData;
import io.fleetscope.avro.GpuSample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NvidiaSmiCsvBlocksTest {
  static final String H200_580 = "nvidia-smi/h200-580.159.04/";
  /** A real loop-mode capture: {@code --format=csv -lms 1000} on one H200, 280 probes (SOURCES.md). */
  static final String SERIES = H200_580 + "series-idle-load-cool.csv";

  /** Feeds the text line by line as the stream reader does, with a pause after every {@code pauseEvery} lines. */
  static List<NvidiaSmiCsvBlocks.Block> feed(NvidiaSmiCsvBlocks b, List<String> lines, int pauseEvery) {
    List<NvidiaSmiCsvBlocks.Block> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      NvidiaSmiCsvBlocks.Block done = b.line(lines.get(i));
      if (done != null) out.add(done);
      if ((i + 1) % pauseEvery == 0) {
        NvidiaSmiCsvBlocks.Block open = b.pause();
        if (open != null && (out.isEmpty() || out.get(out.size() - 1) != open)) out.add(open);
      }
    }
    return out;
  }

  @Test
  void theCapturedLoopOutputIsOneBlockPerProbeWithTheHeaderReadOnce() {
    List<String> lines = TestData.read(SERIES).lines().toList();
    NvidiaSmiCsvBlocks b = new NvidiaSmiCsvBlocks(List.of("index"));
    List<NvidiaSmiCsvBlocks.Block> blocks = new ArrayList<>();
    for (String l : lines) {
      NvidiaSmiCsvBlocks.Block done = b.line(l);
      if (done != null) blocks.add(done);
    }
    blocks.add(b.pause()); // the end of the output: the last probe
    assertThat(lines).hasSize(281);
    assertThat(blocks).hasSize(280).allSatisfy(x -> assertThat(x.rows()).hasSize(1));
    assertThat(b.lastError()).isNull();
    // the columns come from the header, units dropped; values as printed
    assertThat(blocks.get(0).rows().get(0)).containsEntry("timestamp", "2026/12/04 18:15:17.844")
        .containsEntry("power.draw", "78.61 W").containsEntry("temperature.gpu", "34");
    assertThat(blocks.get(279).rows().get(0)).containsEntry("timestamp", "2026/12/04 18:19:57.342")
        .containsEntry("temperature.gpu", "35");
    GpuSample first = NvidiaSmiCsvParser.toSample(blocks.get(0).rows().get(0), TestData.CTX);
    assertThat(first.getGpu()).isZero();
    assertThat(first.getPowerW()).isEqualTo(78.61);
    assertThat(first.getSmClockMhz()).isEqualTo(345.0);
    assertThat(first.getThrottleReasons()).isEqualTo(1L);
  }

  @Test
  void noheaderNounitsOutputUsesTheConfiguredFields() {
    NvidiaSmiCsvBlocks b = new NvidiaSmiCsvBlocks(NvidiaSmiCsvParser.DEFAULT_FIELDS);
    // the captured one-shot noheader,nounits row, as two probes of the loop would print it
    String row = TestData.read(H200_580 + "query-gpu-idle-nounits.csv").strip();
    assertThat(b.line(row)).isNull();
    NvidiaSmiCsvBlocks.Block firstProbe = b.line(row);
    assertThat(firstProbe.rows()).hasSize(1);
    GpuSample s = NvidiaSmiCsvParser.toSample(firstProbe.rows().get(0), TestData.CTX);
    GpuSample oneShot = NvidiaSmiCsvParser.parse(TestData.read(H200_580 + "query-gpu-idle.csv"), TestData.CTX).get(0);
    // the two captures were taken moments apart: only the power draw differs (78.70 W in the other)
    assertThat(oneShot.getPowerW()).isEqualTo(78.7);
    assertThat(s).as("same values as the one-shot csv with header and units")
        .isEqualTo(GpuSample.newBuilder(oneShot).setPowerW(78.68).build());
  }

  /** Eight GPUs: the captured load rows with the index cell set to 0..7 (derived from the capture). */
  static List<String> eightGpuProbe(String row) {
    List<String> out = new ArrayList<>();
    for (int g = 0; g < 8; g++) out.add(g + row.substring(row.indexOf(',')));
    return out;
  }

  @Test
  void aPauseInsideAProbeKeepsItsBlockOpenAndTheNextProbeStartsANewOne() {
    List<String> csv = TestData.read(H200_580 + "query-gpu-load.csv").lines().toList();
    List<String> lines = new ArrayList<>(List.of(csv.get(0)));
    for (int probe = 0; probe < 3; probe++) lines.addAll(eightGpuProbe(csv.get(1)));
    NvidiaSmiCsvBlocks b = new NvidiaSmiCsvBlocks(List.of("index"));
    // pauses after every 3 lines: the output arrives in pieces that cut the probes
    List<NvidiaSmiCsvBlocks.Block> seen = feed(b, lines, 3);
    List<NvidiaSmiCsvBlocks.Block> complete = seen.stream().filter(x -> x.rows().size() == 8).toList();
    assertThat(complete).hasSizeGreaterThanOrEqualTo(3);
    assertThat(seen).allSatisfy(x -> assertThat(x.rows().stream().map(r -> r.get("index")).distinct().count())
        .as("no GPU twice in a block").isEqualTo(x.rows().size()));
    assertThat(complete.get(0).rows().stream().map(r -> r.get("index")).toList())
        .containsExactly("0", "1", "2", "3", "4", "5", "6", "7");
  }

  @Test
  void aBadLineSpoilsOnlyItsProbe() {
    List<String> csv = TestData.read(H200_580 + "query-gpu-load.csv").lines().toList();
    String header = csv.get(0);
    String row = csv.get(1);
    NvidiaSmiCsvBlocks b = new NvidiaSmiCsvBlocks(List.of("index"));
    assertThat(b.line(header)).isNull();
    assertThat(b.line(row)).isNull();
    assertThat(b.line(row.substring(0, row.lastIndexOf(',')))).isNull(); // one cell short (a cut line)
    assertThat(b.pause()).as("spoiled probe is not handed out").isNull();
    assertThat(b.lastError()).contains("has 22 cells, expected 23");
    assertThat(b.line(row)).as("the spoiled probe ends, not handed out").isNull();
    assertThat(b.pause().rows()).hasSize(1);
  }

  @Test
  void aRestartForgetsTheHeaderAndTheHalfReadProbe() {
    List<String> csv = TestData.read(H200_580 + "query-gpu-load.csv").lines().toList();
    NvidiaSmiCsvBlocks b = new NvidiaSmiCsvBlocks(NvidiaSmiCsvParser.DEFAULT_FIELDS);
    b.line(csv.get(0));
    b.line(csv.get(1));
    b.restart();
    assertThat(b.pause()).isNull();
    // the new process prints noheader,nounits: the configured fields again
    b.line(TestData.read(H200_580 + "query-gpu-idle-nounits.csv").strip());
    assertThat(b.pause().rows().get(0)).containsEntry("power.draw", "78.68");
  }
}
