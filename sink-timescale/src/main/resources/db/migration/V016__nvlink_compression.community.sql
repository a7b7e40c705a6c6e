-- Community edition only (timescaledb.license = 'timescale'); skipped on the Apache edition.
-- Compression of the per-link NVLink samples like the other raw tables (V008): one segment per
-- node's GPU link, ordered by time; the sink installs the policy at start (CompressionPolicies).
ALTER TABLE nvlink SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu, link', timescaledb.compress_orderby = 'ts');
