package io.fleetscope.flink.storage;

import io.fleetscope.avro.StorageSample;
import io.fleetscope.flink.core.AlertChange;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pure: the health of one local NVMe controller from its samples. NvmeMediaErrors (warning) while
 * the media-error counter rose by at least {@code media_errors_min} within {@code media_errors_window_s};
 * StorageTierDegraded (tier local-nvme) as critical while the controller reports a critical warning,
 * as warning while its endurance used is at or above {@code percentage_used_limit}. A counter that
 * goes down (controller replaced, log cleared) starts a new baseline.
 */
public final class NvmeHealth implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String MEDIA_ERRORS = "NvmeMediaErrors";
  public static final String DEGRADED = "StorageTierDegraded";

  private Long lastErrors;
  /** (ts, errors added) of the rises within the window. */
  private final ArrayDeque<long[]> rises = new ArrayDeque<>();
  private boolean mediaFiring;
  private boolean criticalFiring;
  private boolean wearFiring;

  /** The alert transitions caused by one sample, in a fixed order. */
  public List<AlertChange> onSample(StorageSample s, StorageTierSettings cfg) {
    long ts = s.getTs();
    Long errors = s.getMediaErrors();
    if (errors != null) {
      if (lastErrors != null && errors > lastErrors) rises.addLast(new long[] {ts, errors - lastErrors});
      lastErrors = errors;
    }
    long windowMs = cfg.mediaErrorsWindowS() * 1000;
    while (!rises.isEmpty() && rises.peekFirst()[0] <= ts - windowMs) rises.removeFirst();
    long risen = rises.stream().mapToLong(r -> r[1]).sum();
    Map<String, String> labels = Map.of("cluster", s.getCluster(), "node", s.getNode(), "tier", s.getTier(), "device", s.getDevice());
    List<AlertChange> out = new ArrayList<>();
    boolean media = risen >= cfg.mediaErrorsMin();
    if (media != mediaFiring) {
      mediaFiring = media;
      out.add(change(MEDIA_ERRORS, "warning", labels, media,
          s.getNode() + " " + s.getDevice() + ": " + risen + " NVMe media errors in the last " + cfg.mediaErrorsWindowS() / 60 + " min",
          "The controller's media and data integrity error counter is " + lastErrors + " and rose by " + risen
              + " within " + cfg.mediaErrorsWindowS() + " s: data it stores (checkpoints, caches) may be unreadable.",
          (double) risen));
    }
    Integer cw = s.getCriticalWarning();
    boolean critical = cw != null && cw != 0;
    if (critical != criticalFiring) {
      criticalFiring = critical;
      out.add(change(DEGRADED, "critical", labels, critical,
          s.getNode() + " " + s.getDevice() + ": NVMe critical warning 0x" + Integer.toHexString(cw == null ? 0 : cw),
          "The controller reports critical warning bits " + describe(cw) + "; the local checkpoint tier of this node is not to be trusted.",
          cw == null ? null : cw.doubleValue()));
    }
    Integer used = s.getPercentageUsed();
    boolean wear = used != null && used >= cfg.percentageUsedLimit();
    if (wear != wearFiring) {
      wearFiring = wear;
      out.add(change(DEGRADED, "warning", labels, wear,
          s.getNode() + " " + s.getDevice() + ": NVMe endurance " + used + "% used",
          "The controller estimates " + used + "% of its rated endurance used (limit " + cfg.percentageUsedLimit()
              + "%); plan its replacement before it turns read-only.",
          used == null ? null : used.doubleValue()));
    }
    return out;
  }

  private static AlertChange change(String alertname, String severity, Map<String, String> labels, boolean firing,
      String summary, String description, Double value) {
    return new AlertChange(alertname, severity, firing, value == null ? Double.NaN : value, labels, summary, description);
  }

  /** The meaning of the critical warning bits (NVMe base specification, SMART / Health log byte 0). */
  static String describe(Integer cw) {
    if (cw == null || cw == 0) return "none";
    List<String> bits = new ArrayList<>();
    String[] names = {"spare below threshold", "temperature threshold", "reliability degraded", "read-only", "volatile backup failed", "persistent memory read-only"};
    for (int i = 0; i < names.length; i++) if ((cw & (1 << i)) != 0) bits.add(names[i]);
    return "0x" + Integer.toHexString(cw) + " (" + String.join(", ", bits) + ")";
  }
}
