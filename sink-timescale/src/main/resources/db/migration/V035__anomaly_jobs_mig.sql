-- v_anomaly_jobs (V018) with MIG devices: an anomaly on one MIG device (labels gpu and
-- gpu_instance_id) touches the jobs whose allocation holds that MIG device (fleet.jobs.v1
-- mig_devices), and a job that holds its GPU without a MIG device of it named (a whole GPU, or a
-- source that did not resolve the MIG device) since it cannot be ruled out; not the jobs on the
-- GPU's other MIG devices. An anomaly on the GPU itself still touches every job on it. Same
-- columns as V018.
CREATE OR REPLACE VIEW v_anomaly_jobs AS
SELECT a.ts,
       a.fingerprint,
       a.status,
       a.labels ->> 'alertname' AS alertname,
       a.labels ->> 'cluster' AS cluster,
       a.labels ->> 'node' AS node,
       al ->> 'job' AS job,
       g.gpus,
       s.job_gpus,
       k.last_checkpoint,
       s.job_gpus * extract(epoch FROM a.ts - k.last_checkpoint) / 3600.0 AS gpu_hours_at_risk
FROM anomalies a
CROSS JOIN LATERAL (
  SELECT h.cluster, h.allocations FROM jobs_history h
  WHERE h.node = a.labels ->> 'node' AND h.ts <= a.ts ORDER BY h.ts DESC LIMIT 1) j
CROSS JOIN LATERAL jsonb_array_elements(j.allocations) al
CROSS JOIN LATERAL (
  SELECT array_agg(x::integer ORDER BY x::integer) AS gpus FROM jsonb_array_elements_text(al -> 'gpus') x
  WHERE a.labels ->> 'gpu' IS NULL
     OR x = a.labels ->> 'gpu' AND (
          a.labels ->> 'gpu_instance_id' IS NULL
          OR NOT EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(al -> 'mig_devices', '[]'::jsonb)) d WHERE d ->> 'gpu' = x)
          OR EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(al -> 'mig_devices', '[]'::jsonb)) d
                     WHERE d ->> 'gpu' = x AND d ->> 'gpu_instance_id' = a.labels ->> 'gpu_instance_id'))) g
LEFT JOIN LATERAL (
  SELECT sum(jsonb_array_length(y -> 'gpus'))::integer AS job_gpus
  FROM (SELECT DISTINCT ON (n.node) n.allocations FROM jobs_history n
        WHERE n.cluster = j.cluster AND n.ts <= a.ts ORDER BY n.node, n.ts DESC) latest
  CROSS JOIN LATERAL jsonb_array_elements(latest.allocations) y
  WHERE y ->> 'job' = al ->> 'job') s ON true
LEFT JOIN LATERAL (
  SELECT max(c.finished_ts) AS last_checkpoint FROM ckpt c
  WHERE c.cluster = j.cluster AND c.job = al ->> 'job' AND c.status = 'completed' AND c.finished_ts <= a.ts) k ON true
WHERE a.labels ? 'node' AND g.gpus IS NOT NULL;

GRANT SELECT ON v_anomaly_jobs TO fleetscope_reader, fleetscope_writer;
