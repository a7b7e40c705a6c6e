package io.fleetscope.flink.rail;

/**
 * One port's traffic within one rail window (a POJO, so Flink serializes it without Kryo). Bytes
 * are counter increases attributed to the window of the later sample.
 */
public class PortWindow {
  public String cluster;
  public String node;
  public String device;
  public int port;
  /** -1 when the port has no rail. */
  public int rail = -1;
  public long windowEnd;
  public long txBytes;
  public long rxBytes;
  /** Nominal line rate of the port, Gb/s. */
  public double lineRateGbps;
  public boolean up;
  public boolean degraded;

  public PortWindow() {}

  public String portId() {
    return node + "/" + device + "/" + port;
  }

  @Override
  public String toString() {
    return "PortWindow{" + portId() + " rail=" + rail + " end=" + windowEnd + " tx=" + txBytes + " rx=" + rxBytes
        + " up=" + up + " degraded=" + degraded + "}";
  }
}
