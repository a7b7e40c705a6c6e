package io.fleetscope.agent.collectors.ckpt;

import io.fleetscope.agent.config.ByteSize;
import io.fleetscope.agent.config.CollectorConfig;
import io.fleetscope.agent.config.ConfigException;

/**
 * Section {@code ckpt}: the local HTTP endpoint where training jobs post checkpoint start/finish
 * events. Always bound to 127.0.0.1. Keys and defaults are documented in agents/README.md under
 * "### ckpt" and in agents/CHECKPOINTS.md.
 */
public final class CkptConfig extends CollectorConfig {
  /** TCP port on 127.0.0.1; 0 picks a free port (tests). Default 18089. */
  public int port = CheckpointServer.DEFAULT_PORT;
  /** Events buffered between two rounds; when full, posts are answered 429. Default 10000. */
  public int maxQueued = 10_000;
  /** Largest accepted request body. Default 16KiB. */
  public ByteSize maxBodyBytes = ByteSize.ofKiB(16);
  /** Checkpoints remembered between start and finish (to fill a finish's started_ts). Default 4096. */
  public int maxInFlight = 4096;

  @Override
  public void validate(String section) throws ConfigException {
    super.validate(section);
    if (port < 0 || port > 65535) {
      throw new ConfigException(section + ".port", "must be 0..65535, got " + port);
    }
    if (maxQueued < 1 || maxQueued > 1_000_000) {
      throw new ConfigException(section + ".max_queued", "must be 1..1000000, got " + maxQueued);
    }
    if (maxBodyBytes.bytes() < 256 || maxBodyBytes.bytes() > 1024 * 1024) {
      throw new ConfigException(section + ".max_body_bytes", "must be 256B..1MiB, got " + maxBodyBytes);
    }
    if (maxInFlight < 1 || maxInFlight > 1_000_000) {
      throw new ConfigException(section + ".max_in_flight", "must be 1..1000000, got " + maxInFlight);
    }
  }
}
