package io.fleetscope.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunbooksTest {

  @Test
  void pointsAtTheAlertnameAnchorInLowerCase() {
    assertThat(Runbooks.url("CoolantFlowLow")).isEqualTo("docs/runbooks.md#coolantflowlow");
  }

  @Test
  void keepsAnotherBaseAsItIs() {
    assertThat(Runbooks.url("https://runbooks.example.org/fleetscope.html", "IbRailDegraded"))
        .isEqualTo("https://runbooks.example.org/fleetscope.html#ibraildegraded");
  }
}
