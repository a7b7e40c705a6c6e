-- The TimescaleDB extension and the two roles of FleetScope's store.
-- fleetscope_writer: the sink (insert into every table, run retention and rollups).
-- fleetscope_reader: SREs and dashboards (select on tables and views, nothing else).
-- Both are group roles (NOLOGIN): grant them to login users, e.g.
--   CREATE ROLE sink LOGIN PASSWORD '...' IN ROLE fleetscope_writer;
CREATE EXTENSION IF NOT EXISTS timescaledb;

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fleetscope_writer') THEN
    CREATE ROLE fleetscope_writer NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fleetscope_reader') THEN
    CREATE ROLE fleetscope_reader NOLOGIN;
  END IF;
END
$$;
