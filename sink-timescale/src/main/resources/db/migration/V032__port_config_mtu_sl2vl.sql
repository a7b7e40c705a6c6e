-- fleet.fabric.config.v1 also carries every port's active and largest MTU (ibv_devinfo) and, on
-- InfiniBand ports, the SL-to-VL mapping table (smpquery sl2vl): PortConfig fields active_mtu,
-- max_mtu (bytes) and sl2vl (16 VLs, one per service level 0-15, stored as a JSON array like pfc_prios).
ALTER TABLE port_config_history ADD COLUMN IF NOT EXISTS active_mtu integer;
ALTER TABLE port_config_history ADD COLUMN IF NOT EXISTS max_mtu integer;
ALTER TABLE port_config_history ADD COLUMN IF NOT EXISTS sl2vl jsonb;
ALTER TABLE port_config_current ADD COLUMN IF NOT EXISTS active_mtu integer;
ALTER TABLE port_config_current ADD COLUMN IF NOT EXISTS max_mtu integer;
ALTER TABLE port_config_current ADD COLUMN IF NOT EXISTS sl2vl jsonb;
