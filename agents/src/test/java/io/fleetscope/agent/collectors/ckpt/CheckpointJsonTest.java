package io.fleetscope.agent.collectors.ckpt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CheckpointJsonTest {

  static CheckpointPost parse(String json) {
    return CheckpointJson.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsEveryField() {
    CheckpointPost p = parse("{\"job\":\"llama-70b\",\"step\":12000,\"status\":\"completed\",\"bytes\":1400000000000,"
        + "\"tier\":\"lustre\",\"started_ts\":1764680000000,\"finished_ts\":1764680042000,\"ranks\":512}");
    assertThat(p).isEqualTo(new CheckpointPost("llama-70b", 12000, 1_400_000_000_000L, "lustre", "completed",
        1764680000000L, 1764680042000L, 512));
  }

  @Test
  void aMinimalStartGetsDefaults() {
    assertThat(parse("{\"job\":\"j\",\"step\":0,\"status\":\"started\"}"))
        .isEqualTo(new CheckpointPost("j", 0, 0, "unknown", "started", null, null, null));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
    "not json                 | {job:                                                            | body is not JSON",
    "an array                 | [1]                                                              | one JSON object",
    "missing job              | {\"step\":1,\"status\":\"started\"}                               | job is required",
    "blank job                | {\"job\":\" \",\"step\":1,\"status\":\"started\"}                 | job must be a non-empty string",
    "missing step             | {\"job\":\"j\",\"status\":\"started\"}                            | step is required",
    "fractional step          | {\"job\":\"j\",\"step\":1.5,\"status\":\"started\"}               | step must be an integer",
    "negative bytes           | {\"job\":\"j\",\"step\":1,\"status\":\"completed\",\"bytes\":-1}  | bytes must not be negative",
    "unknown status           | {\"job\":\"j\",\"step\":1,\"status\":\"done\"}                    | status must be one of [started, completed, failed]",
    "completed without bytes  | {\"job\":\"j\",\"step\":1,\"status\":\"completed\"}               | bytes is required when status is completed",
    "seconds not ms           | {\"job\":\"j\",\"step\":1,\"status\":\"started\",\"started_ts\":1764680000} | looks like seconds",
    "finish before start      | {\"job\":\"j\",\"step\":1,\"status\":\"failed\",\"started_ts\":1764680000001,\"finished_ts\":1764680000000} | is before started_ts",
    "typo field               | {\"job\":\"j\",\"step\":1,\"status\":\"started\",\"byte\":5}      | unknown field 'byte'",
    "zero ranks               | {\"job\":\"j\",\"step\":1,\"status\":\"started\",\"ranks\":0}     | ranks must be a positive integer"
  })
  void refusesBadInputWithAReasonTheJobCanAct(String name, String json, String reason) {
    assertThatThrownBy(() -> parse(json)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(reason);
  }
}
