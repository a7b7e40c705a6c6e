package io.fleetscope.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlNamesTest {
  @Test
  void namesOfSelectorsNotOfFunctionsLabelsOrDurations() {
    assertThat(PromQlNames.of("histogram_quantile(0.95, sum by (le, route) (rate(fleetscope_console_http_request_duration_seconds_bucket{route=~\"/api.*\"}[$__rate_interval])))"))
        .containsExactly("fleetscope_console_http_request_duration_seconds_bucket");
    assertThat(PromQlNames.of("max by (job_name) (flink_jobmanager_job_lastCheckpointDuration) / 1000"))
        .containsExactly("flink_jobmanager_job_lastCheckpointDuration");
    assertThat(PromQlNames.of("sum(rate(a_total[5m])) / ignoring(code) group_left sum(rate(b_total[5m])) > bool 1e3"))
        .containsExactly("a_total", "b_total");
    assertThat(PromQlNames.of("up{job=\"x\"} offset 5m and on(instance) other_metric")).containsExactly("up", "other_metric");
  }
}
