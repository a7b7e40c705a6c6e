package io.fleetscope.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.flink.core.Analytic;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnalyticCatalogTest {
  @Test
  void everyAnalyticInBuildOrderWithDistinctNames() {
    assertThat(AnalyticCatalog.names()).containsExactly("rail", "ecc", "thermal", "facility", "ckpt", "peer", "fleet", "storage", "fabric", "nvlink");
  }

  @Test
  void selectKeepsTheGivenOrder() {
    assertThat(AnalyticCatalog.select(List.of("fleet", "rail")).stream().map(Analytic::name)).containsExactly("fleet", "rail");
  }

  @Test
  void anUnknownNameIsAnErrorNamingTheKnownOnes() {
    assertThatThrownBy(() -> AnalyticCatalog.select(List.of("rail", "thermals")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown analytic 'thermals'; available: [rail, ecc, thermal, facility, ckpt, peer, fleet, storage, fabric, nvlink]");
  }
}
