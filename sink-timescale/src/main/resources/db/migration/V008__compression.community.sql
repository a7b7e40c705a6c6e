-- Community edition only (timescaledb.license = 'timescale'); skipped on the Apache edition,
-- which has no compression. UNTESTED here: the development and CI machines build the Apache
-- edition. Segment by the series key, order by time, compress chunks older than two days (the
-- rollup maintainer and late records touch only the newest chunks).
ALTER TABLE gpu SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'ts DESC');
SELECT add_compression_policy('gpu', INTERVAL '2 days', if_not_exists => TRUE);
ALTER TABLE ib SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, device, port', timescaledb.compress_orderby = 'ts DESC');
SELECT add_compression_policy('ib', INTERVAL '2 days', if_not_exists => TRUE);
ALTER TABLE pdu SET (timescaledb.compress, timescaledb.compress_segmentby = 'device', timescaledb.compress_orderby = 'ts DESC');
SELECT add_compression_policy('pdu', INTERVAL '2 days', if_not_exists => TRUE);
ALTER TABLE coolant SET (timescaledb.compress, timescaledb.compress_segmentby = 'device, loop', timescaledb.compress_orderby = 'ts DESC');
SELECT add_compression_policy('coolant', INTERVAL '2 days', if_not_exists => TRUE);
ALTER TABLE thermal_risk SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'ts DESC');
SELECT add_compression_policy('thermal_risk', INTERVAL '2 days', if_not_exists => TRUE);
ALTER TABLE ecc_trend SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'ts DESC');
SELECT add_compression_policy('ecc_trend', INTERVAL '2 days', if_not_exists => TRUE);
ALTER TABLE gpu_rollup_1m SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'bucket DESC');
SELECT add_compression_policy('gpu_rollup_1m', INTERVAL '7 days', if_not_exists => TRUE);
