-- drop_chunks needs the owner of the hypertable; the sink may run as a member of
-- fleetscope_writer that owns nothing. This SECURITY DEFINER function (owned by whoever applied
-- the migrations, i.e. the tables' owner) lets the writer drop expired chunks of FleetScope's own
-- hypertables, and nothing else.
CREATE OR REPLACE FUNCTION fleetscope_drop_chunks(p_table regclass, p_older_than timestamptz) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $fn$
DECLARE n integer;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM timescaledb_information.hypertables h
                  WHERE h.hypertable_schema = 'public' AND format('%I', h.hypertable_name)::regclass = p_table) THEN
    RAISE EXCEPTION 'fleetscope_drop_chunks: % is not a hypertable of the public schema', p_table;
  END IF;
  IF p_table = 'alerts'::regclass THEN
    RAISE EXCEPTION 'fleetscope_drop_chunks: alerts are kept';
  END IF;
  SELECT count(*) INTO n FROM drop_chunks(p_table, older_than => p_older_than);
  RETURN n;
END
$fn$;
REVOKE EXECUTE ON FUNCTION fleetscope_drop_chunks(regclass, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fleetscope_drop_chunks(regclass, timestamptz) TO fleetscope_writer;
