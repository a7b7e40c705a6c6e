-- Community edition only (timescaledb.license = 'timescale'); skipped on the Apache edition,
-- which has no compression. Native compression (columnstore) settings of every raw and derived
-- hypertable and of the GPU rollups: segment by the series key (each segment is one GPU, port,
-- device or rail, so its values are one smooth series and its text columns one dictionary entry),
-- order by time. The compression policies (after how many days a chunk is compressed) are
-- installed by the sink at start from its settings (compression.* in SinkConfig), like the
-- retention policies; the continuous aggregates of rail_bw are compressed in V011.
-- Low-volume tables with jsonb payloads (anomalies, dead_letters, inventory and jobs history) and
-- alerts (a plain table, kept) are not compressed.
ALTER TABLE gpu SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'ts');
ALTER TABLE gpu_xid SET (timescaledb.compress, timescaledb.compress_segmentby = 'node', timescaledb.compress_orderby = 'ts');
ALTER TABLE ib SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, device, port', timescaledb.compress_orderby = 'ts');
ALTER TABLE pdu SET (timescaledb.compress, timescaledb.compress_segmentby = 'device', timescaledb.compress_orderby = 'ts');
ALTER TABLE coolant SET (timescaledb.compress, timescaledb.compress_segmentby = 'device, loop', timescaledb.compress_orderby = 'ts');
ALTER TABLE ckpt SET (timescaledb.compress, timescaledb.compress_segmentby = 'node', timescaledb.compress_orderby = 'ts');
ALTER TABLE rail_bw SET (timescaledb.compress, timescaledb.compress_segmentby = 'cluster, rail', timescaledb.compress_orderby = 'ts');
ALTER TABLE thermal_risk SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'ts');
ALTER TABLE ecc_trend SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'ts');
ALTER TABLE ckpt_slo SET (timescaledb.compress, timescaledb.compress_segmentby = 'cluster, job', timescaledb.compress_orderby = 'ts');
ALTER TABLE gpu_rollup_1m SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'bucket');
ALTER TABLE gpu_rollup_1h SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'bucket');
