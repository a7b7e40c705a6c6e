package io.fleetscope.loadgen.scenario;

import java.util.List;
import java.util.Map;

/**
 * One expected alert: which alertname, on which target, from when to when (epoch ms). An anomaly
 * matches when its alertname is {@code alertname}, its labels equal {@code target} on every key in
 * {@code match}, and it starts within [startTs - tolerance, endTs].
 *
 * @param tolerated alertnames that may also fire on this target without counting as false positives
 */
public record GroundTruthLabel(String scenario, String fault, String faultType, String alertname,
    Map<String, String> target, List<String> match, long startTs, long endTs, List<String> tolerated) {

  public boolean matchesTarget(Map<String, String> anomalyLabels) {
    for (String k : match) {
      String want = target.get(k);
      if (want == null || !want.equals(anomalyLabels.get(k))) {
        return false;
      }
    }
    return true;
  }
}
