package io.fleetscope.sink.query;

import static io.fleetscope.sink.query.QueryParam.optional;
import static io.fleetscope.sink.query.QueryParam.required;

import io.fleetscope.sink.query.QueryParam.Type;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The named SRE history queries (views in V006__sre_views.sql). */
public final class SreQueries {
  private SreQueries() {}

  private static final QueryParam FROM_1H = optional("from", Type.TIME, "now-1h", "start of the range (inclusive)");
  private static final QueryParam TO = optional("to", Type.TIME, "now", "end of the range (exclusive)");
  private static final QueryParam FROM_1D = optional("from", Type.TIME, "now-1d", "start of the range (inclusive)");
  private static final QueryParam CLUSTER = optional("cluster", Type.TEXT, "", "only this cluster (empty: all)");

  private static final Map<String, NamedQuery> ALL;

  static {
    Map<String, NamedQuery> m = new LinkedHashMap<>();
    add(m, new NamedQuery("gpu-history", "one GPU's raw samples over a time range",
        "SELECT * FROM v_gpu_history WHERE node = :node AND gpu = :gpu AND ts >= :from AND ts < :to ORDER BY ts LIMIT :limit",
        List.of(required("node", Type.TEXT, "node name"), required("gpu", Type.INT, "GPU index on the node"), FROM_1H, TO,
            optional("limit", Type.INT, "10000", "most rows"))));
    add(m, new NamedQuery("worst-gpus-ecc", "GPUs with the most ECC errors (uncorrectable first) over the last N days",
        "SELECT cluster, node, gpu, max(uuid) AS uuid, sum(ecc_dbe_increase) AS dbe, sum(ecc_sbe_increase) AS sbe, "
            + "coalesce(max(retired_pages_sbe_max), 0) + coalesce(max(retired_pages_dbe_max), 0) AS retired_pages, "
            + "coalesce(bool_or(row_remap_failure_any), false) AS row_remap_failure "
            + "FROM v_gpu_hourly WHERE bucket >= CAST(:until AS timestamptz) - make_interval(days => CAST(:days AS integer)) "
            + "AND bucket < CAST(:until AS timestamptz) "
            + "AND (:cluster = '' OR cluster = :cluster) "
            + "GROUP BY cluster, node, gpu HAVING sum(ecc_dbe_increase) + sum(ecc_sbe_increase) > 0 "
            + "OR bool_or(row_remap_failure_any) ORDER BY dbe DESC, sbe DESC, node, gpu LIMIT :limit",
        List.of(optional("days", Type.INT, "7", "window length in days"), optional("until", Type.TIME, "now", "end of the window"),
            CLUSTER, optional("limit", Type.INT, "20", "most GPUs"))));
    add(m, new NamedQuery("rail-utilisation", "per-rail bandwidth and utilisation over a time range (from the 1-minute rollup)",
        "SELECT cluster, rail, sum(windows) AS windows, "
            + "round((sum(utilisation_avg * windows) / sum(windows))::numeric, 4) AS utilisation_avg, "
            + "round(max(utilisation_max)::numeric, 4) AS utilisation_max, "
            + "round((sum(tx_gbps_avg * windows) / sum(windows))::numeric, 2) AS tx_gbps_avg, round(max(tx_gbps_max)::numeric, 2) AS tx_gbps_max, "
            + "round((sum(rx_gbps_avg * windows) / sum(windows))::numeric, 2) AS rx_gbps_avg, round(max(rx_gbps_max)::numeric, 2) AS rx_gbps_max, "
            + "min(ports_up_min) AS ports_up_min, max(ports_total_max) AS ports_total, "
            + "round(max(imbalance_abs_max)::numeric, 4) AS imbalance_abs_max "
            + "FROM v_rail_utilisation_1m WHERE bucket >= :from AND bucket < :to AND (:cluster = '' OR cluster = :cluster) "
            + "GROUP BY cluster, rail ORDER BY cluster, rail",
        List.of(FROM_1H, TO, CLUSTER)));
    add(m, new NamedQuery("throttle-minutes-per-rack", "GPU throttle minutes (any reason, and thermal) per rack over a time range",
        "SELECT cluster, rack, round(sum(throttle_minutes)::numeric, 2) AS throttle_minutes, "
            + "round(sum(thermal_minutes)::numeric, 2) AS thermal_minutes, "
            + "count(DISTINCT (node, gpu)) FILTER (WHERE throttle_minutes > 0) AS gpus_throttled, "
            + "count(DISTINCT (node, gpu)) AS gpus "
            + "FROM v_gpu_throttle_1m WHERE bucket >= :from AND bucket < :to AND (:cluster = '' OR cluster = :cluster) "
            + "GROUP BY cluster, rack ORDER BY throttle_minutes DESC, cluster, rack",
        List.of(FROM_1D, TO, CLUSTER)));
    add(m, new NamedQuery("ckpt-slo-per-job", "checkpoint SLO compliance, throughput and burn rate per job over a time range",
        "SELECT cluster, job, count(*) AS checkpoints, count(*) FILTER (WHERE compliant) AS compliant, "
            + "round(100.0 * count(*) FILTER (WHERE compliant) / count(*), 1) AS compliance_pct, "
            + "round(percentile_cont(0.5) WITHIN GROUP (ORDER BY throughput_gbps)::numeric, 2) AS median_gbps, "
            + "round(max(duration_s)::numeric, 1) AS max_duration_s, "
            + "last(burn_rate_1h, ts) AS burn_rate_1h, last(burn_rate_6h, ts) AS burn_rate_6h, "
            + "last(recommended_interval_s, ts) AS recommended_interval_s "
            + "FROM v_ckpt_slo WHERE ts >= :from AND ts < :to AND (:job = '' OR job = :job) "
            + "GROUP BY cluster, job ORDER BY compliance_pct, cluster, job",
        List.of(FROM_1D, TO, optional("job", Type.TEXT, "", "only this job (empty: all)"))));
    add(m, new NamedQuery("incident-timeline", "every state change of an incident (alert) and of its member anomalies",
        "SELECT ts, kind, fingerprint, status, alertname, severity, summary, version, detail FROM v_incident_timeline "
            + "WHERE incident = :fingerprint ORDER BY ts, kind, fingerprint",
        List.of(required("fingerprint", Type.TEXT, "the incident's fingerprint (fleet.alerts.v1 key)"))));
    add(m, new NamedQuery("node-changes", "what changed on a node: inventory changes and job ownership over a time range",
        "SELECT ts, what, changed, now FROM v_node_changes WHERE node = :node AND ts >= :from AND ts < :to ORDER BY ts, what",
        List.of(required("node", Type.TEXT, "node name"), optional("from", Type.TIME, "now-30d", "start of the range"), TO)));
    add(m, new NamedQuery("gpu-health", "GPU health (lemon) score over the last N days, worst first (formula: README)",
        "SELECT * FROM gpu_health(CAST(:days AS integer)) WHERE (:node = '' OR node = :node) AND (:cluster = '' OR cluster = :cluster) "
            + "ORDER BY health, node, gpu LIMIT :limit",
        List.of(optional("days", Type.INT, "90", "window length in days"),
            optional("node", Type.TEXT, "", "only this node (empty: the fleet)"), CLUSTER,
            optional("limit", Type.INT, "50", "most GPUs"))));
    add(m, new NamedQuery("job-incidents", "a training job's incidents and what each cost it: GPUs touched, GPU-hours at risk",
        "SELECT starts_at, ends_at, status, incident, alertname, severity, gpus_affected, job_gpus, last_checkpoint, "
            + "CASE WHEN last_checkpoint IS NULL THEN 'no checkpoint yet' "
            + "ELSE round(extract(epoch FROM (first_named - last_checkpoint)) / 60) || ' min' END AS checkpoint_age, "
            + "round(gpu_hours_at_risk::numeric, 1) AS gpu_hours_at_risk, summary "
            + "FROM v_job_incidents WHERE job = :job AND starts_at >= :from AND starts_at < :to "
            + "AND (:cluster = '' OR cluster = :cluster) ORDER BY starts_at DESC, incident LIMIT :limit",
        List.of(required("job", Type.TEXT, "job name (as fleet.jobs.v1 and the checkpoint events spell it)"),
            optional("from", Type.TIME, "now-30d", "incidents that started at or after this"), TO, CLUSTER,
            optional("limit", Type.INT, "100", "most incidents"))));
    add(m, new NamedQuery("nvlink-node-bandwidth", "NVLink tx/rx throughput per node in Gbit/s over a time range (V025 nvlink_node_bandwidth)",
        "SELECT cluster, node, links, round(nvlink_tx_gbps::numeric, 2) AS nvlink_tx_gbps, "
            + "round(nvlink_rx_gbps::numeric, 2) AS nvlink_rx_gbps, last_ts "
            + "FROM nvlink_node_bandwidth(:from, :to) WHERE (:cluster = '' OR cluster = :cluster) "
            + "ORDER BY nvlink_tx_gbps + nvlink_rx_gbps DESC NULLS LAST, cluster, node LIMIT :limit",
        List.of(optional("from", Type.TIME, "now-10m", "start of the range (inclusive)"), TO, CLUSTER,
            optional("limit", Type.INT, "100", "most nodes"))));
    add(m, new NamedQuery("storage-tiers", "storage tiers per node, tier and device over a time range: I/O rates, latency per "
            + "operation, NVMe health, the storage alerts active then (V029 storage_tiers)",
        "SELECT * FROM storage_tiers(CAST(:from AS timestamptz), CAST(:to AS timestamptz)) "
            + "WHERE (:cluster = '' OR cluster = :cluster) AND (:node = '' OR node = :node) AND (:tier = '' OR tier = :tier) "
            + "ORDER BY state = 'ok', cluster, node, tier, device LIMIT :limit",
        List.of(FROM_1H, TO, CLUSTER, optional("node", Type.TEXT, "", "only this node (empty: all)"),
            optional("tier", Type.TEXT, "", "only this tier: local-nvme, lustre or nfs (empty: all)"),
            optional("limit", Type.INT, "1000", "most rows"))));
    add(m, new NamedQuery("fabric-config", "the current configuration of every fabric port, what differs from its rail's "
            + "peers and the FabricConfigDrift alerts firing on it (V029 v_fabric_config; active/max MTU and SL-to-VL V033)",
        "SELECT ts, cluster, node, device, port, netdev, rail, link_layer, mtu_bytes, trust, pfc_prios, ecn_np_prios, "
            + "ecn_rp_prios, cnp_dscp, dcqcn, rate_gbps, link_width, link_speed, cap_mask, rail_ports, "
            + "array_to_string(differs_from_rail, ' ') AS differs_from_rail, "
            + "array_to_string(drift_fields, ' ') AS drift_fields, drift_since, drift, active_mtu, max_mtu, sl2vl FROM v_fabric_config "
            + "WHERE (:cluster = '' OR cluster = :cluster) AND (:node = '' OR node = :node) "
            + "AND (:rail = '' OR rail::text = :rail) "
            + "AND (:only_drift = 0 OR cardinality(drift_fields) > 0 OR cardinality(differs_from_rail) > 0) "
            + "ORDER BY cardinality(drift_fields) + cardinality(differs_from_rail) = 0, cluster, rail, node, device, port LIMIT :limit",
        List.of(CLUSTER, optional("node", Type.TEXT, "", "only this node (empty: all)"),
            optional("rail", Type.TEXT, "", "only this rail number (empty: all)"),
            optional("only_drift", Type.INT, "0", "1: only ports that drift or differ from their rail"),
            optional("limit", Type.INT, "5000", "most ports"))));
    ALL = Collections.unmodifiableMap(m);
  }

  private static void add(Map<String, NamedQuery> m, NamedQuery q) {
    m.put(q.name(), q);
  }

  public static Map<String, NamedQuery> all() {
    return ALL;
  }

  public static NamedQuery require(String name) {
    NamedQuery q = ALL.get(name);
    if (q == null) {
      throw new IllegalArgumentException("unknown query '" + name + "'; queries: " + String.join(", ", ALL.keySet()));
    }
    return q;
  }

  /** The list printed by {@code query} without a name. */
  public static String list() {
    StringBuilder sb = new StringBuilder("queries (./fleetscope query NAME [--param k=v ...] [--format table|csv|json]):\n");
    for (NamedQuery q : ALL.values()) {
      sb.append("  ").append(q.usage()).append('\n');
    }
    return sb.toString();
  }
}
