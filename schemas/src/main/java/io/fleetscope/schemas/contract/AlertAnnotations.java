package io.fleetscope.schemas.contract;

/**
 * Names of the annotations of an anomaly or incident: text that explains it to a person and, unlike
 * the {@link AlertLabels labels}, is not part of its identity.
 */
public final class AlertAnnotations {
  public static final String SUMMARY = "summary";
  public static final String DESCRIPTION = "description";
  /** Link to the alert name's section of the runbooks, see {@link Runbooks#url(String)}. */
  public static final String RUNBOOK_URL = "runbook_url";
  /**
   * On an incident: the training jobs it touches in one line, the largest GPU-hours at risk first
   * ("job llama-70b-run3, 1,024 GPUs, last checkpoint 47 min ago: about 800 GPU-hours at risk (+1 more)").
   */
  public static final String JOBS = "jobs";

  private AlertAnnotations() {}
}
