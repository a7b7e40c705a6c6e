package io.fleetscope.stack.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServicesBackendTest {
  @Test
  void processesIsTheDefaultAndContainersIsChosenByName() {
    assertThat(ServicesBackend.named("")).isInstanceOf(ProcessBackend.class);
    assertThat(ServicesBackend.named("processes")).isInstanceOf(ProcessBackend.class);
    assertThat(ServicesBackend.named(" containers ")).isInstanceOf(ContainerBackend.class);
  }

  @Test
  void anUnknownBackendIsRefusedWithTheChoices() {
    assertThatThrownBy(() -> ServicesBackend.named("docker"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-Dfleetscope.services must be processes or containers, got 'docker'");
  }

  @Test
  void containerImagesAreFleetScopesOwnAtTheProjectVersion() {
    ContainerBackend.Config c = new ContainerBackend.Config(ContainerBackend.Config.DEFAULT_TAG, Duration.ofSeconds(5));
    assertThat(c.image("kafka")).isEqualTo("fleetscope/kafka:0.1.0");
    assertThat(c.image("timescaledb")).isEqualTo("fleetscope/timescaledb:0.1.0");
  }
}
