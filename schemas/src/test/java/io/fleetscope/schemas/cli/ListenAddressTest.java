package io.fleetscope.schemas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ListenAddressTest {
  @Test
  void ipLiteralsAreTaken() {
    assertThat(ListenAddress.parse("--http-address", "127.0.0.1").getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(ListenAddress.parse("--http-address", " 10.1.2.3 ").getHostAddress()).isEqualTo("10.1.2.3");
    assertThat(ListenAddress.parse("--http-address", "::1").isLoopbackAddress()).isTrue();
    assertThat(ListenAddress.parse("--http-address", "[::]").isAnyLocalAddress()).isTrue();
    assertThat(ListenAddress.parse("--http-address", "0.0.0.0").isAnyLocalAddress()).isTrue();
  }

  @Test
  void namesAndNonsenseAreRefusedNamingTheSetting() {
    for (String bad : new String[] {"localhost", "", "example.org", "999.1.1.1", "1.2.3", "127.0.0.1:80"}) {
      assertThatThrownBy(() -> ListenAddress.parse("console --http-address", bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("console --http-address must be an IP address such as 127.0.0.1, got '" + bad + "'");
    }
  }
}
