package io.fleetscope.flink.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HardwareCatalogTest {
  private final HardwareCatalog c = HardwareCatalog.load();

  @Test
  void everyModelOfTheIssueIsListedWithTdpAndHbm() {
    assertThat(c.gpus()).extracting(HardwareCatalog.GpuModel::name)
        .containsExactly("A100", "H100", "H200", "B200", "GB200", "MI300X", "MI325X", "Gaudi 3");
    assertThat(c.gpus()).allMatch(g -> g.tdpW() != null && g.hbmGb() != null && g.hbmTbPerS() != null && g.source() != null);
  }

  @Test
  void modelNamesAsDriversReportThemMatch() {
    assertThat(c.gpu("NVIDIA H100 80GB HBM3")).get().extracting(HardwareCatalog.GpuModel::name).isEqualTo("H100");
    assertThat(c.gpu("NVIDIA H200")).get().extracting(HardwareCatalog.GpuModel::tdpW).isEqualTo(700.0);
    assertThat(c.gpu("NVIDIA A100-SXM4-80GB")).get().extracting(HardwareCatalog.GpuModel::slowdownTempC).isEqualTo(89.0);
    assertThat(c.gpu("NVIDIA GB200")).get().extracting(HardwareCatalog.GpuModel::name).isEqualTo("GB200");
    assertThat(c.gpu("AMD Instinct MI325X")).get().extracting(HardwareCatalog.GpuModel::hbmGb).isEqualTo(256.0);
    assertThat(c.gpu("Tesla T4")).isEmpty();
  }

  @Test
  void coolingCapacityByType() {
    assertThat(c.cooling("air")).get().extracting(HardwareCatalog.Cooling::typicalKw).isEqualTo(15.0);
    assertThat(c.cooling("rear-door")).get().extracting(HardwareCatalog.Cooling::typicalKw).isEqualTo(30.0);
    assertThat(c.cooling("direct-liquid").orElseThrow().minKw()).isEqualTo(40.0);
    assertThat(c.cooling("direct-liquid").orElseThrow().maxKw()).isEqualTo(100.0);
    assertThat(c.cooling("immersion").orElseThrow().minKw()).isEqualTo(100.0);
  }
}
