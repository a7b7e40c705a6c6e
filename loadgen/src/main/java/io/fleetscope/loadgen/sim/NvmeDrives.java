package io.fleetscope.loadgen.sim;

import io.fleetscope.avro.StorageSample;

/**
 * The local NVMe drive of every simulated node ({@code nvme0}, tier {@code local-nvme}), as the agent's
 * {@code nvme} collector reports it on fleet.storage.v1 from the controller's SMART / health log: no
 * critical warning, no media errors, a few percent of its endurance used, full spare capacity, a
 * temperature around 40 °C and the bytes written by the node's caches and local checkpoints. The
 * faults {@code nvme_media_errors} and {@code nvme_worn_stable} change a node's drive through
 * {@link NodeEffect#onNvme}. Draws come from random streams of their own, so enabling the samples
 * (scenario setting {@code nvme_interval}) changes no other record.
 */
final class NvmeDrives {
  static final String TIER = "local-nvme";
  static final String DEVICE = "nvme0";
  static final String SOURCE = "nvme-smart-log";
  /** The health log counts data in units of 1,000 blocks of 512 bytes. */
  static final long DATA_UNIT_BYTES = 512_000;

  /** One drive's health log. */
  static final class Drive {
    long mediaErrors;
    long errLogEntries;
    int criticalWarning;
    int percentageUsed;
    int availableSparePct = 100;
    double baseTempC;
    double tempC;
    long readBytes;
    long writeBytes;
  }

  private final Rng[] rng;
  private final Drive[] drives;

  NvmeDrives(long seed, java.util.List<String> nodes) {
    int n = nodes.size();
    rng = new Rng[n];
    drives = new Drive[n];
    for (int i = 0; i < n; i++) {
      rng[i] = Rng.of(seed, "nvme/" + nodes.get(i));
      Drive d = new Drive();
      d.percentageUsed = 1 + (int) rng[i].uniform(0, 15);
      d.baseTempC = rng[i].uniform(36, 44);
      drives[i] = d;
    }
  }

  /**
   * Advances node {@code i}'s drive over {@code dtS} seconds and returns its sample.
   *
   * @param effects the faults acting on the node this tick, or null
   */
  StorageSample step(int i, long ts, String cluster, String node, long seq, double dtS, NodeEffects effects) {
    Rng r = rng[i];
    Drive d = drives[i];
    d.readBytes += Math.round(dtS * r.uniform(20e6, 60e6) / DATA_UNIT_BYTES) * DATA_UNIT_BYTES;
    d.writeBytes += Math.round(dtS * r.uniform(40e6, 120e6) / DATA_UNIT_BYTES) * DATA_UNIT_BYTES;
    d.tempC = d.baseTempC + r.uniform(-1, 1);
    if (effects != null) {
      effects.onNvme(d, r, dtS);
    }
    StorageSample s = AgentRecords.storage(ts, cluster, node, seq, SOURCE, TIER, DEVICE);
    s.setCriticalWarning(d.criticalWarning);
    s.setMediaErrors(d.mediaErrors);
    s.setPercentageUsed(d.percentageUsed);
    s.setAvailableSparePct(d.availableSparePct);
    s.setTempC(Math.round(d.tempC * 10) / 10.0);
    s.setErrLogEntries(d.errLogEntries);
    s.setReadBytes(d.readBytes);
    s.setWriteBytes(d.writeBytes);
    return s;
  }
}
