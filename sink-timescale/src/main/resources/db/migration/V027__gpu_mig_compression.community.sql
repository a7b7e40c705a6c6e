-- Community edition only (timescaledb.license = 'timescale'); skipped on the Apache edition.
-- Compression of the MIG device samples like the other raw tables (V008): one segment per node's
-- GPU, ordered by MIG device and time; the sink installs the policy at start (CompressionPolicies).
ALTER TABLE gpu_mig SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'gpu_instance_id, compute_instance_id, ts');
