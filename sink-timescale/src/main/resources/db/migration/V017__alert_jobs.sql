-- The training jobs an incident touches (fleet.alerts.v1 field jobs, filled by the correlator):
-- per job the GPUs affected, the job's size, its last completed checkpoint and the GPU-hours at
-- risk (job size x time since that checkpoint) when that version of the incident was emitted.
ALTER TABLE alerts ADD COLUMN IF NOT EXISTS jobs jsonb;
CREATE INDEX IF NOT EXISTS alerts_jobs ON alerts USING gin (jobs jsonb_path_ops) WHERE jobs IS NOT NULL;

-- One row per (job, incident): the incident as it stands now (its latest version) and what it cost
-- the job: the most GPUs of the job it touched and the most GPU-hours at risk over its versions
-- (null while the job had no completed checkpoint: everything since the job started is at risk).
CREATE OR REPLACE VIEW v_job_incidents AS
WITH named AS (
  SELECT a.fingerprint, a.ts, a.starts_at, j.value AS job
  FROM alerts a CROSS JOIN LATERAL jsonb_array_elements(a.jobs) AS j(value)
  WHERE a.jobs IS NOT NULL AND jsonb_typeof(a.jobs) = 'array'
),
latest AS (
  SELECT DISTINCT ON (fingerprint) fingerprint, status, ends_at, labels, annotations
  FROM alerts ORDER BY fingerprint, ts DESC, version DESC NULLS LAST
)
SELECT n.job ->> 'job' AS job,
       n.fingerprint AS incident,
       l.labels ->> 'cluster' AS cluster,
       l.labels ->> 'alertname' AS alertname,
       l.labels ->> 'severity' AS severity,
       l.status,
       min(n.starts_at) AS starts_at,
       l.ends_at,
       min(n.ts) AS first_named,
       max((n.job ->> 'gpus_affected')::integer) AS gpus_affected,
       max((n.job ->> 'job_gpus')::integer) AS job_gpus,
       to_timestamp(max((n.job ->> 'last_checkpoint_ts')::bigint) / 1000.0) AS last_checkpoint,
       max((n.job ->> 'gpu_hours_at_risk')::double precision) AS gpu_hours_at_risk,
       l.annotations ->> 'summary' AS summary
FROM named n JOIN latest l USING (fingerprint)
GROUP BY n.job ->> 'job', n.fingerprint, l.labels, l.status, l.ends_at, l.annotations;

GRANT SELECT ON v_job_incidents TO fleetscope_reader, fleetscope_writer;
