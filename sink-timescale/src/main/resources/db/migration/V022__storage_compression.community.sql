-- Community edition only (timescaledb.license = 'timescale'); skipped on the Apache edition.
-- Compression of the storage samples like the other raw tables (V008): one segment per node's
-- device or mount; the sink installs the policy at start (CompressionPolicies).
ALTER TABLE storage SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, tier, device', timescaledb.compress_orderby = 'ts');
