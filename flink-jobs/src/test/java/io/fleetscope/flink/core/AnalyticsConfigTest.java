package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.flink.ecc.EccConfig;
import io.fleetscope.flink.rail.RailConfig;
import org.junit.jupiter.api.Test;

class AnalyticsConfigTest {
  @Test
  void defaultsBindEverySectionOfThisModule() {
    AnalyticsConfig c = AnalyticsConfig.defaults();
    assertThat(c.pipeline().outOfOrdernessMs()).isEqualTo(5000);
    RailConfig r = c.section("rail", RailConfig.class);
    assertThat(r.windowMs()).isEqualTo(10_000);
    assertThat(r.lineRateGbps()).isEqualTo(400.0);
    EccConfig e = c.section("ecc", EccConfig.class);
    assertThat(e.shortWindowMs()).isEqualTo(3_600_000);
  }

  @Test
  void aUserFileOverridesSomeKeysAndKeepsTheRest() {
    AnalyticsConfig c = AnalyticsConfig.fromYaml("rail:\n  window_ms: 5000\n");
    RailConfig r = c.section("rail", RailConfig.class);
    assertThat(r.windowMs()).isEqualTo(5000);
    assertThat(r.symbolErrorsPerWindow()).isEqualTo(10);
  }

  @Test
  void anUnknownKeyIsRefusedWithItsName() {
    AnalyticsConfig c = AnalyticsConfig.fromYaml("rail:\n  windw_ms: 5000\n");
    assertThatThrownBy(() -> c.section("rail", RailConfig.class))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'rail'").hasMessageContaining("windw_ms");
  }

  @Test
  void aBadValueIsRefusedWithTheKey() {
    AnalyticsConfig c = AnalyticsConfig.fromYaml("ecc:\n  short_window_ms: 90000\n");
    assertThatThrownBy(() -> c.section("ecc", EccConfig.class))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ecc.short_window_ms");
    AnalyticsConfig neg = AnalyticsConfig.fromYaml("pipeline:\n  idleness_ms: -1\n");
    assertThatThrownBy(neg::pipeline).hasMessageContaining("pipeline.idleness_ms must be > 0");
  }

  @Test
  void eventTopicsStopHoldingTheWatermarkBackSoonerThanSampleTopics() {
    PipelineConfig p = AnalyticsConfig.defaults().pipeline();
    assertThat(p.idlenessMsOf(io.fleetscope.schemas.Topics.GPU_XID)).isEqualTo(2000);
    assertThat(p.idlenessMsOf(io.fleetscope.schemas.Topics.CKPT)).isEqualTo(2000);
    assertThat(p.idlenessMsOf(io.fleetscope.schemas.Topics.GPU)).isEqualTo(30_000);
    assertThat(p.idlenessMsOf(io.fleetscope.schemas.Topics.IB)).isEqualTo(30_000);
    PipelineConfig custom = AnalyticsConfig.fromYaml("pipeline:\n  event_idleness_ms: 500\n").pipeline();
    assertThat(custom.idlenessMsOf(io.fleetscope.schemas.Topics.GPU_XID)).isEqualTo(500);
    assertThatThrownBy(AnalyticsConfig.fromYaml("pipeline:\n  event_idleness_ms: 0\n")::pipeline)
        .hasMessageContaining("pipeline.event_idleness_ms must be > 0");
  }

  @Test
  void longTicksOfFoldingAnalyticsComeInSlicesThatDivideThem() {
    assertThat(AnalyticsConfig.defaults().pipeline().sliceMs()).isEqualTo(10_000);
    NodeAnalytic<?, ?, ?, ?> ecc = new io.fleetscope.flink.ecc.EccFunction(
        AnalyticsConfig.defaults().section("ecc", io.fleetscope.flink.ecc.EccConfig.class),
        io.fleetscope.flink.ecc.XidCatalog.load(), "ecc");
    assertThat(ecc.tickMs()).isEqualTo(60_000);
    assertThat(ecc.sliceMs(10_000)).isEqualTo(10_000);
    assertThat(ecc.sliceMs(7_000)).as("a slice that does not divide the tick").isEqualTo(60_000);
    assertThat(ecc.sliceMs(60_000)).isEqualTo(60_000);
    assertThatThrownBy(AnalyticsConfig.fromYaml("pipeline:\n  slice_ms: 0\n")::pipeline)
        .hasMessageContaining("pipeline.slice_ms must be > 0");
  }

  @Test
  void aMissingSectionIsNamed() {
    assertThatThrownBy(() -> AnalyticsConfig.defaults().section("nope", RailConfig.class))
        .hasMessageContaining("config section 'nope' is missing");
  }

  @Test
  void notYamlIsRefused() {
    assertThatThrownBy(() -> AnalyticsConfig.fromYaml("rail: [unclosed")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid YAML");
  }

  @Test
  void theConfigSurvivesJavaSerialization() throws Exception {
    AnalyticsConfig c = AnalyticsConfig.fromYaml("rail:\n  window_ms: 20000\n");
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream o = new java.io.ObjectOutputStream(b)) {
      o.writeObject(c);
    }
    AnalyticsConfig back = (AnalyticsConfig) new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(b.toByteArray())).readObject();
    assertThat(back.section("rail", RailConfig.class).windowMs()).isEqualTo(20000);
  }
}
