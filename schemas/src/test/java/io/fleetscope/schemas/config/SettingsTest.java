package io.fleetscope.schemas.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetscope.schemas.config.Settings.Key;
import io.fleetscope.schemas.config.Settings.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {
  static final List<Key> KEYS = List.of(
      new Key("a.name", Type.STRING, "x", "a text"),
      new Key("a.count", Type.INTEGER, "1", "a whole number"),
      new Key("b.items", Type.LIST, "p,q", "a list"));

  @Test
  void readsSectionsAndKeysIntoFullNames() {
    assertThat(Settings.parse("a:\n  name: y\n  count: 3\nb:\n  items: [r, s]\n", KEYS))
        .containsExactly(Map.entry("a.name", "y"), Map.entry("a.count", "3"), Map.entry("b.items", "r,s"));
    assertThat(Settings.parse("b:\n  items: r,s\na:\n  name:\n", KEYS)).containsEntry("b.items", "r,s").containsEntry("a.name", "");
    assertThat(Settings.parse("", KEYS)).isEmpty();
    assertThat(Settings.parse("# only a comment\n", KEYS)).isEmpty();
  }

  @Test
  void refusesUnknownKeysAndWrongTypesNamingTheKey() {
    assertThatThrownBy(() -> Settings.parse("a:\n  cont: 3\n", KEYS))
        .hasMessage("unknown setting 'a.cont'; known settings: a.name, a.count, b.items");
    assertThatThrownBy(() -> Settings.parse("c:\n  x: 1\n", KEYS)).hasMessage("unknown section 'c'; known sections: a, b");
    assertThatThrownBy(() -> Settings.parse("a:\n  count: three\n", KEYS)).hasMessage("a.count must be a whole number, got a text 'three'");
    assertThatThrownBy(() -> Settings.parse("a:\n  count: '3'\n", KEYS)).hasMessage("a.count must be a whole number, got a text '3'");
    assertThatThrownBy(() -> Settings.parse("a:\n  name: [1]\n", KEYS)).hasMessage("a.name must be a text, got a list");
    assertThatThrownBy(() -> Settings.parse("b:\n  items: [[1]]\n", KEYS)).hasMessage("b.items must be a list of texts, got an item that is a list");
    assertThatThrownBy(() -> Settings.parse("a: 1\n", KEYS)).hasMessage("section 'a' must be a mapping of keys, got a number");
    assertThatThrownBy(() -> Settings.parse("- a\n", KEYS)).hasMessageStartingWith("settings must be a YAML mapping of sections (a, b)");
    assertThatThrownBy(() -> Settings.parse("a: [\n", KEYS)).hasMessageStartingWith("settings are not valid YAML");
  }

  @Test
  void theTemplateReadsBackAsTheDefaults() {
    String yaml = Settings.yamlTemplate("header", KEYS);
    assertThat(yaml).startsWith("# header\n\na:\n  # a text\n  name: \"x\"\n");
    assertThat(Settings.parse(yaml, KEYS)).containsExactly(Map.entry("a.name", "x"), Map.entry("a.count", "1"), Map.entry("b.items", "p,q"));
    assertThat(Settings.markdownTable(KEYS)).contains("| `a.count` | whole number | `1` | a whole number |\n");
  }

  @Test
  void aNameIsSectionDotKey() {
    assertThatThrownBy(() -> new Key("a.b.c", Type.STRING, "", "d")).hasMessageContaining("section.key");
    assertThatThrownBy(() -> new Key("ab", Type.STRING, "", "d")).hasMessageContaining("section.key");
  }
}
