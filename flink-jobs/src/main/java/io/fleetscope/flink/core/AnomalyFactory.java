package io.fleetscope.flink.core;

import io.fleetscope.avro.Anomaly;
import io.fleetscope.schemas.contract.AlertAnnotations;
import io.fleetscope.schemas.contract.AlertLabels;
import io.fleetscope.schemas.contract.AlertStatus;
import io.fleetscope.schemas.contract.Fingerprint;
import io.fleetscope.schemas.contract.Runbooks;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds fleet.anomalies.v1 records: Prometheus-style labels, annotations (summary, description,
 * runbook_url), fingerprint of the labels, all as the contract in {@code io.fleetscope.schemas.contract}
 * defines them. Use with {@link AlertTracker} so that a condition emits "firing" once when it starts
 * and "resolved" once when it clears.
 */
public final class AnomalyFactory implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String source;

  /** @param source the analytic's name, written to Anomaly.source */
  public AnomalyFactory(String source) {
    this.source = source;
  }

  public String source() {
    return source;
  }

  /** Starts a draft with the alertname and severity labels (critical, warning, info). */
  public Draft alert(String alertname, String severity) {
    return new Draft(alertname, severity);
  }

  /** An anomaly being described: labels identify it, annotations explain it. */
  public final class Draft implements Serializable {
    private static final long serialVersionUID = 1L;
    private final LinkedHashMap<String, String> labels = new LinkedHashMap<>();
    private final java.util.TreeSet<String> contextLabels = new java.util.TreeSet<>();
    private transient String identity;
    private String summary = "";
    private String description = "";
    private Double value;

    private Draft(String alertname, String severity) {
      labels.put(AlertLabels.ALERTNAME, alertname);
      labels.put(AlertLabels.SEVERITY, severity);
    }

    /** Adds a label; null values are left out (a label is either known or absent). */
    public Draft label(String name, Object v) {
      if (v != null) {
        labels.put(name, String.valueOf(v));
        identity = null;
      }
      return this;
    }

    /**
     * Adds a context label (e.g. rack, job, model): part of the record's labels, but not of the
     * condition's identity in {@link AlertTracker}, so a label learnt later from the inventory does
     * not turn one condition into two.
     */
    public Draft context(String name, Object v) {
      if (v != null) {
        labels.put(name, String.valueOf(v));
        contextLabels.add(name);
        identity = null;
      }
      return this;
    }

    /** Identity of the condition: the labels without context labels. */
    public String identity() {
      if (identity == null) {
        Map<String, String> id = new TreeMap<>(labels);
        id.keySet().removeAll(contextLabels);
        identity = id.toString();
      }
      return identity;
    }

    /** This draft's annotations and value with the labels of {@code firing} (for the resolution). */
    Draft withLabelsOf(Draft firing) {
      Draft d = new Draft(firing.labels.get(AlertLabels.ALERTNAME), firing.labels.get(AlertLabels.SEVERITY));
      d.labels.putAll(firing.labels);
      d.contextLabels.addAll(firing.contextLabels);
      d.summary = summary;
      d.description = description;
      d.value = value;
      return d;
    }

    public Draft summary(String s) {
      this.summary = s;
      return this;
    }

    public Draft description(String d) {
      this.description = d;
      return this;
    }

    public Draft value(Double v) {
      this.value = v;
      return this;
    }

    public String alertname() {
      return labels.get(AlertLabels.ALERTNAME);
    }

    public Map<String, String> labels() {
      return labels;
    }

    public String fingerprint() {
      return Fingerprint.of(labels);
    }

    /** The record for state {@code status} detected at event time {@code ts}. */
    public Anomaly build(String status, long ts, long startsAt) {
      Map<String, String> ann = new LinkedHashMap<>();
      boolean resolved = AlertStatus.isResolved(status);
      ann.put(AlertAnnotations.SUMMARY, resolved ? "resolved: " + summary : summary);
      ann.put(AlertAnnotations.DESCRIPTION, description);
      ann.put(AlertAnnotations.RUNBOOK_URL, Runbooks.url(alertname()));
      return Anomaly.newBuilder()
          .setTs(ts)
          .setFingerprint(fingerprint())
          .setStatus(status)
          .setLabels(new LinkedHashMap<>(labels))
          .setAnnotations(ann)
          .setStartsAt(startsAt)
          .setEndsAt(resolved ? Long.valueOf(ts) : null)
          .setValue(value)
          .setSource(source)
          .build();
    }
  }
}
