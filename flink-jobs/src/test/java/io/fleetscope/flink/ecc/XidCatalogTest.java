package io.fleetscope.flink.ecc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class XidCatalogTest {
  private final XidCatalog c = XidCatalog.load();

  @Test
  void theCatalogHasNvidiasCodesWithMeaningAndSeverity() {
    assertThat(c.size()).isGreaterThan(150);
    assertThat(c.lookup(79).description()).isEqualTo("GPU has fallen off the bus");
    assertThat(c.lookup(79).severity()).isEqualTo("critical");
    assertThat(c.lookup(48).mnemonic()).isEqualTo("ROBUST_CHANNEL_GPU_ECC_DBE");
    assertThat(c.lookup(48).severity()).isEqualTo("critical");
    assertThat(c.lookup(63).description()).isEqualTo("GPU memory remapping event");
    assertThat(c.lookup(63).severity()).isEqualTo("warning");
    assertThat(c.lookup(64).severity()).isEqualTo("critical");
    assertThat(c.lookup(74).description()).isEqualTo("NVLINK Error");
    assertThat(c.lookup(92).description()).isEqualTo("High single-bit ECC error rate");
    assertThat(c.lookup(94).description()).isEqualTo("Contained memory error");
    assertThat(c.lookup(95).severity()).isEqualTo("critical");
    assertThat(c.lookup(13).severity()).isEqualTo("warning");
    assertThat(c.lookup(119).mnemonic()).isEqualTo("GSP_RPC_TIMEOUT");
  }

  @Test
  void anUnknownCodeIsNamedAsUnknown() {
    assertThat(c.lookup(99999).description()).contains("unknown XID 99999");
  }

  @Test
  void csvWithQuotesAndCommas() {
    assertThat(XidCatalog.csv("45,M,\"a, b \"\"c\"\"\",X,,warning")).containsExactly("45", "M", "a, b \"c\"", "X", "", "warning");
  }
}
