-- The writer may read and write every table (the sink also runs retention and rollups); the
-- reader may only read. Default privileges cover tables that later migrations add.
GRANT USAGE ON SCHEMA public TO fleetscope_writer, fleetscope_reader;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO fleetscope_writer;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO fleetscope_reader;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO fleetscope_writer, fleetscope_reader;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO fleetscope_writer;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO fleetscope_reader;
-- the rollup refresh functions write; only the writer (and owners) may call them
REVOKE EXECUTE ON FUNCTION refresh_gpu_rollup_1m(timestamptz, timestamptz), refresh_gpu_rollup_1h(timestamptz, timestamptz),
  refresh_rail_rollup_1m(timestamptz, timestamptz), refresh_rail_rollup_1h(timestamptz, timestamptz) FROM PUBLIC, fleetscope_reader;
