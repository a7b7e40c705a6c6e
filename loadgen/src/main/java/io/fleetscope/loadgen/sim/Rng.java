package io.fleetscope.loadgen.sim;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** A random stream seeded from the run seed and a stable id, so each entity's numbers are reproducible alone. */
public final class Rng {
  private final SplittableRandom r;

  private Rng(long seed) {
    this.r = new SplittableRandom(seed);
  }

  public static Rng of(long seed, String id) {
    return new Rng(mix(seed ^ fnv1a(id)));
  }

  static long fnv1a(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= (b & 0xff);
      h *= 0x100000001b3L;
    }
    return h;
  }

  static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }

  public double uniform() {
    return r.nextDouble();
  }

  public double uniform(double lo, double hi) {
    return lo + (hi - lo) * r.nextDouble();
  }

  public int nextInt(int bound) {
    return r.nextInt(bound);
  }

  public long nextLong(long bound) {
    return r.nextLong(bound);
  }

  public boolean chance(double p) {
    return r.nextDouble() < p;
  }

  /** Approximately normal noise (sum of uniforms: cheap, bounded at +-3 sigma). */
  public double gaussian(double sigma) {
    double s = r.nextDouble() + r.nextDouble() + r.nextDouble() + r.nextDouble() + r.nextDouble() + r.nextDouble()
        - 3.0;
    return s * sigma * 1.4142135623730951;
  }

  /** Poisson-distributed count for small means (Knuth). */
  public long poisson(double mean) {
    if (mean <= 0) {
      return 0;
    }
    if (mean > 30) {
      return Math.max(0, Math.round(mean + gaussian(Math.sqrt(mean))));
    }
    double l = Math.exp(-mean);
    long k = 0;
    double p = 1;
    do {
      k++;
      p *= r.nextDouble();
    } while (p > l);
    return k - 1;
  }

  public String uuid(String prefix) {
    long a = r.nextLong();
    long b = r.nextLong();
    return String.format("%s%08x-%04x-%04x-%04x-%012x", prefix, (a >>> 32), (a >>> 16) & 0xffff, a & 0xffff,
        (b >>> 48) & 0xffff, b & 0xffffffffffffL);
  }
}
