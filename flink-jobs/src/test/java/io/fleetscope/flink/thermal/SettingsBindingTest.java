package io.fleetscope.flink.thermal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.flink.ckpt.CheckpointSloSettings;
import io.fleetscope.flink.core.AnalyticsConfig;
import io.fleetscope.flink.core.HardwareCatalog;
import io.fleetscope.flink.fleet.FleetHygieneSettings;
import io.fleetscope.flink.peer.PeerOutlierSettings;
import org.junit.jupiter.api.Test;

/** The YAML defaults bind to the settings records and say the same as their defaults(). */
class SettingsBindingTest {
  private final AnalyticsConfig cfg = AnalyticsConfig.defaults();

  @Test
  void yamlDefaultsEqualCodeDefaults() {
    assertThat(cfg.section("thermal", ThermalRiskSettings.class)).isEqualTo(ThermalRiskSettings.defaults());
    assertThat(ThermalRiskAnalytic.facility(cfg, HardwareCatalog.load())).isEqualTo(FacilitySettings.defaults());
    assertThat(cfg.section("ckpt", CheckpointSloSettings.class)).isEqualTo(CheckpointSloSettings.defaults());
    assertThat(cfg.section("peer", PeerOutlierSettings.class)).isEqualTo(PeerOutlierSettings.defaults());
    assertThat(cfg.section("fleet", FleetHygieneSettings.class)).isEqualTo(FleetHygieneSettings.defaults());
  }

  @Test
  void badValuesAndUnknownKeysAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> cfg.with("thermal", "warning_level", 0.9).section("thermal", ThermalRiskSettings.class))
        .hasMessageContaining("thermal").hasMessageContaining("watch < warning < critical");
    assertThatThrownBy(() -> cfg.with("ckpt", "target", 1.5).section("ckpt", CheckpointSloSettings.class))
        .hasMessageContaining("target must be in (0,1)");
    assertThatThrownBy(() -> cfg.with("peer", "z_treshold", 3).section("peer", PeerOutlierSettings.class))
        .hasMessageContaining("z_treshold");
    assertThatThrownBy(() -> ThermalRiskAnalytic.facility(cfg.with("facility", "default_cooling_type", "swamp"),
        HardwareCatalog.load())).hasMessageContaining("default_cooling_type swamp");
  }

  @Test
  void overrideChangesOneKey() {
    assertThat(cfg.with("fleet", "stale_after_s", 300).section("fleet", FleetHygieneSettings.class).staleAfterMs("gpu"))
        .isEqualTo(300_000);
  }
}
