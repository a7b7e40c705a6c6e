-- fleet.fabric.config.v1 also carries InfiniBand ports: their link rate, width and speed and their
-- capability mask (PortConfig fields rate_gbps, link_width, link_speed, cap_mask; null on RoCE ports).
ALTER TABLE port_config_history ADD COLUMN IF NOT EXISTS rate_gbps double precision;
ALTER TABLE port_config_history ADD COLUMN IF NOT EXISTS link_width text;
ALTER TABLE port_config_history ADD COLUMN IF NOT EXISTS link_speed text;
ALTER TABLE port_config_history ADD COLUMN IF NOT EXISTS cap_mask text;
ALTER TABLE port_config_current ADD COLUMN IF NOT EXISTS rate_gbps double precision;
ALTER TABLE port_config_current ADD COLUMN IF NOT EXISTS link_width text;
ALTER TABLE port_config_current ADD COLUMN IF NOT EXISTS link_speed text;
ALTER TABLE port_config_current ADD COLUMN IF NOT EXISTS cap_mask text;
