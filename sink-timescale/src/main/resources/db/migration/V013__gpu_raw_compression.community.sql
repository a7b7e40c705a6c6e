-- Community edition only: compression of gpu_raw (V012) as V008 set it for gpu: one segment per GPU
-- (node, gpu), ordered by time, so each compressed column is one GPU's series of up to 1,000 samples.
ALTER TABLE gpu_raw SET (timescaledb.compress, timescaledb.compress_segmentby = 'node, gpu', timescaledb.compress_orderby = 'ts');
