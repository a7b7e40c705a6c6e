package io.fleetscope.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeatmapTest {
  static Heatmap.Cell cell(String row, String rack, String node, int gpu, Double temp, Long throttle, Long sbe, Long dbe,
      Boolean remapFailure, Double score, String level) {
    return new Heatmap.Cell(row, rack, node, gpu, temp, 90.0, null, throttle, sbe, dbe, false, remapFailure, score, level);
  }

  static Heatmap.Cell fine(String node, int gpu) {
    return cell("row-1", "k1", node, gpu, 60.0, 0L, 0L, 0L, false, 0.1, "ok");
  }

  @Test
  void eachMetricHasItsLevels() {
    assertThat(Heatmap.read(Heatmap.Metric.HEADROOM, cell("a", "k", "n", 0, 80.5, 0L, 0L, 0L, false, null, null)))
        .isEqualTo(new Heatmap.Reading(9.5, 1));
    assertThat(Heatmap.read(Heatmap.Metric.HEADROOM, cell("a", "k", "n", 0, 91.0, 0L, 0L, 0L, false, null, null)).level()).isEqualTo(3);
    assertThat(Heatmap.read(Heatmap.Metric.HEADROOM, new Heatmap.Cell("a", "k", "n", 0, null, null, 3.0, null, null, null, null, null,
        0.7, "warning"))).as("no sample: the analytics' headroom").isEqualTo(new Heatmap.Reading(3.0, 2));
    assertThat(Heatmap.read(Heatmap.Metric.HEADROOM, new Heatmap.Cell("a", "k", "n", 0, null, null, null, null, null, null, null, null,
        null, null)).level()).isEqualTo(-1);
    assertThat(Heatmap.read(Heatmap.Metric.RISK, fine("n", 0))).isEqualTo(new Heatmap.Reading(0.1, 0));
    assertThat(Heatmap.read(Heatmap.Metric.RISK, cell("a", "k", "n", 0, 60.0, 0L, 0L, 0L, false, 0.456, "watch")))
        .isEqualTo(new Heatmap.Reading(0.46, 1));
    assertThat(Heatmap.read(Heatmap.Metric.ECC, cell("a", "k", "n", 0, 60.0, 0L, 12L, 0L, false, null, null)))
        .isEqualTo(new Heatmap.Reading(12.0, 1));
    assertThat(Heatmap.read(Heatmap.Metric.ECC, cell("a", "k", "n", 0, 60.0, 0L, 0L, 1L, false, null, null)).level()).isEqualTo(2);
    assertThat(Heatmap.read(Heatmap.Metric.ECC, cell("a", "k", "n", 0, 60.0, 0L, 0L, 1L, true, null, null)).level()).isEqualTo(3);
    assertThat(Heatmap.read(Heatmap.Metric.THROTTLE, cell("a", "k", "n", 0, 60.0, 0x1L, 0L, 0L, false, null, null)).level())
        .as("idle is not throttling").isZero();
    assertThat(Heatmap.read(Heatmap.Metric.THROTTLE, cell("a", "k", "n", 0, 60.0, 0x4L, 0L, 0L, false, null, null)).level()).isEqualTo(1);
    assertThat(Heatmap.read(Heatmap.Metric.THROTTLE, cell("a", "k", "n", 0, 60.0, 0x84L, 0L, 0L, false, null, null)).level()).isEqualTo(2);
    assertThat(Heatmap.read(Heatmap.Metric.THROTTLE, cell("a", "k", "n", 0, 60.0, 0x24L, 0L, 0L, false, null, null)).level()).isEqualTo(3);
  }

  @Test
  void cellsAreGroupedRacksByRowNodesByRack() {
    List<Heatmap.Cell> cells = List.of(fine("n1", 0), fine("n1", 1), fine("n2", 0),
        cell("row-1", "k2", "n3", 0, 88.0, 0L, 0L, 0L, false, 0.9, "critical"),
        cell("row-2", "k3", "n4", 0, null, null, null, null, null, null, null));
    ObjectNode h = Heatmap.build(Heatmap.Metric.HEADROOM, cells);
    assertThat(h.get("gpus").asInt()).isEqualTo(5);
    assertThat(h.get("nodes").asInt()).isEqualTo(4);
    assertThat(h.get("racks").asInt()).isEqualTo(3);
    assertThat(h.get("reporting").asInt()).isEqualTo(4);
    assertThat(h.get("levels").toString()).isEqualTo("[3,0,1,0]");
    assertThat(h.get("rows").toString()).isEqualTo("[{\"row\":\"row-1\",\"racks\":["
        + "{\"rack\":\"k1\",\"nodes\":[{\"node\":\"n1\",\"gpu\":[0,1],\"v\":[30.0,30.0],\"l\":[0,0]},"
        + "{\"node\":\"n2\",\"gpu\":[0],\"v\":[30.0],\"l\":[0]}]},"
        + "{\"rack\":\"k2\",\"nodes\":[{\"node\":\"n3\",\"gpu\":[0],\"v\":[2.0],\"l\":[2]}]}]},"
        + "{\"row\":\"row-2\",\"racks\":[{\"rack\":\"k3\",\"nodes\":[{\"node\":\"n4\",\"gpu\":[0],\"v\":[null],\"l\":[-1]}]}]}]");
  }

  @Test
  void anUnknownMetricIsABadParameter() {
    assertThat(Heatmap.Metric.parse(null)).isEqualTo(Heatmap.Metric.HEADROOM);
    assertThat(Heatmap.Metric.parse("ECC")).isEqualTo(Heatmap.Metric.ECC);
    assertThatThrownBy(() -> Heatmap.Metric.parse("power")).isInstanceOf(ConsoleServer.BadParam.class)
        .hasMessage("metric must be one of headroom, risk, ecc, throttle, got 'power'");
  }
}
