package io.fleetscope.schemas.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The settings in which two flat {@code key -> value} views differ: what a bundle recorded (the
 * settings that produced it) against what runs now. Keys are compared when {@code relevant} says
 * so (endpoints and ports do not change what the analytics or the correlator produce).
 */
public final class SettingsDiff {
  private SettingsDiff() {}

  /** One differing key; a missing side is null. */
  public record Difference(String key, String recorded, String now) {
    @Override
    public String toString() {
      return key + ": bundle=" + (recorded == null ? "(unset)" : recorded) + " now=" + (now == null ? "(unset)" : now);
    }
  }

  public static List<Difference> of(Map<String, String> recorded, Map<String, String> now, Predicate<String> relevant) {
    List<Difference> out = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>(recorded.keySet());
    keys.addAll(now.keySet());
    for (String k : keys) {
      if (relevant.test(k) && !Objects.equals(recorded.get(k), now.get(k))) {
        out.add(new Difference(k, recorded.get(k), now.get(k)));
      }
    }
    return out;
  }

  /** {@code same} or {@code N differences: k: bundle=a now=b; ...}, for one log line. */
  public static String describe(List<Difference> d) {
    if (d.isEmpty()) {
      return "same";
    }
    StringBuilder b = new StringBuilder().append(d.size()).append(d.size() == 1 ? " difference: " : " differences: ");
    for (int i = 0; i < d.size(); i++) {
      b.append(i == 0 ? "" : "; ").append(d.get(i));
    }
    return b.toString();
  }
}
