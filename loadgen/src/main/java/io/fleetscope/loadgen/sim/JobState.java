package io.fleetscope.loadgen.sim;

import io.fleetscope.loadgen.topology.SiteTopology;

/**
 * A training job's schedule: repeated steps (compute then all-reduce) and periodic synchronous
 * checkpoints whose duration is bytes / tier throughput.
 */
final class JobState {
  /** Aggregate write throughput of the default checkpoint tier for a job of up to {@link #TIER_NODES} nodes, bytes/s. */
  static final double TIER_BYTES_PER_S = 25e9;
  /** A larger job's tier throughput grows with its nodes (a parallel file system scales with its clients). */
  static final int TIER_NODES = 8;
  /** Checkpoint size per GPU (weights + optimizer shard), bytes. */
  static final double BYTES_PER_GPU = 12e9;

  final SiteTopology.Job job;
  final double stepPeriodS;
  final double computeFraction;
  final double phaseOffsetS;
  final long bytes;
  /** This job's tier throughput: {@link #TIER_BYTES_PER_S}, scaled up for jobs above {@link #TIER_NODES} nodes. */
  final double tierBytesPerS;
  long nextCkptTs;
  long ckptStartTs = -1;
  long ckptEndTs = -1;
  long step;
  String tier = "lustre";

  JobState(SiteTopology.Job job, int gpusPerNode, Rng rng, long startTs, long ckptIntervalMs) {
    this.job = job;
    this.stepPeriodS = rng.uniform(5, 8);
    this.computeFraction = rng.uniform(0.62, 0.75);
    this.phaseOffsetS = rng.uniform(0, stepPeriodS);
    this.bytes = (long) (BYTES_PER_GPU * gpusPerNode * job.nodes().size());
    this.tierBytesPerS = TIER_BYTES_PER_S * Math.max(1, job.nodes().size() / (double) TIER_NODES);
    this.nextCkptTs = startTs + (long) (ckptIntervalMs * rng.uniform(0.3, 1.0));
    this.step = 1000 + rng.nextInt(100_000);
  }

  /** Mean fraction of TDP over the job's steps (compute and all-reduce), between checkpoints. */
  double averagePowerFraction() {
    return computeFraction * Phase.COMPUTE.powerFraction + (1 - computeFraction) * Phase.ALL_REDUCE.powerFraction;
  }

  boolean inCheckpoint(long ts) {
    return ckptStartTs >= 0 && ts >= ckptStartTs && ts < ckptEndTs;
  }

  /**
   * Mean fraction of TDP the job draws over {@code [fromTs, toTs)}: each phase weighted by its exact share of that time
   * (the checkpoint's share where one runs), not the phase at one instant. A GPU's die integrates its power: a step of
   * 5.03 s read at whole seconds would otherwise heat as if its compute share were 3/5 or 4/5 for minutes at a time
   * (a beat of several degrees, minutes long), where the real share is constant.
   */
  double meanPowerFractionOver(long fromTs, long toTs, long startTs) {
    if (toTs <= fromTs) {
      return phaseAt(toTs, startTs).powerFraction;
    }
    double len = (toTs - fromTs) / 1000.0;
    double ckpt = 0;
    if (ckptStartTs >= 0) {
      ckpt = Math.max(0, Math.min(toTs, ckptEndTs) - Math.max(fromTs, ckptStartTs)) / 1000.0;
    }
    double a = (fromTs - startTs) / 1000.0 + phaseOffsetS;
    double b = (toTs - startTs) / 1000.0 + phaseOffsetS;
    double computeShare = (computeTimeUntil(b) - computeTimeUntil(a)) / len;
    double steps = computeShare * Phase.COMPUTE.powerFraction + (1 - computeShare) * Phase.ALL_REDUCE.powerFraction;
    return (ckpt * Phase.CHECKPOINT.powerFraction + (len - ckpt) * steps) / len;
  }

  /** Seconds spent in compute from step time 0 to t (each step starts with compute). */
  private double computeTimeUntil(double t) {
    double computeS = computeFraction * stepPeriodS;
    double whole = Math.floor(t / stepPeriodS);
    return whole * computeS + Math.min(t - whole * stepPeriodS, computeS);
  }

  Phase phaseAt(long ts, long startTs) {
    if (inCheckpoint(ts)) {
      return Phase.CHECKPOINT;
    }
    double t = (ts - startTs) / 1000.0 + phaseOffsetS;
    double pos = (t % stepPeriodS) / stepPeriodS;
    return pos < computeFraction ? Phase.COMPUTE : Phase.ALL_REDUCE;
  }
}
