package io.fleetscope.schemas.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsDiffTest {
  @Test
  void listsChangedAddedAndRemovedKeysThatMatter() {
    var d = SettingsDiff.of(Map.of("a.hold", "60", "a.port", "1", "a.gone", "x"), Map.of("a.hold", "30", "a.port", "2", "a.new", "y"),
        k -> !k.endsWith("port"));
    assertThat(d).extracting(Object::toString)
        .containsExactly("a.gone: bundle=x now=(unset)", "a.hold: bundle=60 now=30", "a.new: bundle=(unset) now=y");
    assertThat(SettingsDiff.describe(d)).startsWith("3 differences: a.gone: bundle=x now=(unset); a.hold:");
    assertThat(SettingsDiff.describe(SettingsDiff.of(Map.of("k", "1"), Map.of("k", "1"), k -> true))).isEqualTo("same");
  }
}
