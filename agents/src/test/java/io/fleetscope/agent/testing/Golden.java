package io.fleetscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.schemas.JsonLines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.generic.IndexedRecord;

/**
 * Compares a complete record set, one JSON object per line (exactly the Avro fields), with a golden
 * file under src/test/resources/expected/. Run with {@code -Dfleetscope.updateGolden=true} to
 * rewrite the files (then review the diff).
 */
public final class Golden {
  private Golden() {}

  public static boolean updating() {
    return Boolean.getBoolean("fleetscope.updateGolden");
  }

  public static String jsonLines(List<? extends IndexedRecord> records) {
    StringBuilder sb = new StringBuilder();
    for (IndexedRecord r : records) sb.append(JsonLines.valueToJson(r)).append('\n');
    return sb.toString();
  }

  public static void assertMatches(String name, List<? extends IndexedRecord> records) throws IOException {
    assertText(name, jsonLines(records));
  }

  public static void assertText(String name, String actual) throws IOException {
    Path file = TestData.moduleDir().resolve("src/test/resources/expected").resolve(name);
    if (updating()) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
      return;
    }
    assertThat(file).as("golden file %s (create it with -Dfleetscope.updateGolden=true)", name).exists();
    assertThat(actual).as("records vs golden %s", name).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }
}
