package io.fleetscope.flink.core;

import java.util.Map;

/**
 * One state change of one alert, as a pure analytic decides it; its operator turns it into an
 * {@code Anomaly} record (labels, annotations, fingerprint) with the framework's factory.
 *
 * @param alertname the alert name of ARCHITECTURE.md
 * @param severity critical, warning or info
 * @param firing true when the alert starts firing, false when it resolves
 * @param value the measured value that triggered (or ended) it
 * @param labels labels identifying where (cluster, rack, device, loop, node, gpu, ...)
 * @param summary one line for the page
 * @param description what was measured against which limit
 */
public record AlertChange(
    String alertname,
    String severity,
    boolean firing,
    double value,
    Map<String, String> labels,
    String summary,
    String description) {}
