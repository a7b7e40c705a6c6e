-- The training jobs each anomaly touches, from the stored history (anomalies come from the analytics,
-- which do not join jobs; the correlator puts the jobs on incidents, V017): for an anomaly on a node
-- (and GPU, when it names one), the jobs that held that node's GPUs at the anomaly's time (the node's
-- latest fleet.jobs.v1 record at or before it), the GPUs of each job it touches, the job's size then
-- (its GPUs on every node of the cluster), its last checkpoint completed by then and the GPU-hours at
-- risk (job size x time since that checkpoint; null when it had none yet). Meant to be read for a few
-- anomalies (a fingerprint, an incident's members, a short range): the job size looks at every node's
-- allocation history.
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
  WHERE a.labels ->> 'gpu' IS NULL OR x = a.labels ->> 'gpu') g
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
