package io.fleetscope.flink.thermal;

/**
 * What the first stage of the thermal and facility jobs hands to the rack-keyed second stage: a
 * GPU sample, a PDU reading or a coolant reading, with its rack and limits already looked up in
 * the topology. Flink serializes it with {@link ThermalInputSerializer} (named here), not with its
 * reflective POJO serializer.
 */
@org.apache.flink.api.common.typeinfo.TypeInfo(ThermalInputTypeInfo.Factory.class)
public class ThermalInput {
  public static final int PDU = 0;
  public static final int COOLANT = 1;
  public static final int GPU = 2;

  public int kind;
  public String cluster;
  /** rack key: the rack id, or "node:<node>" / "device:<id>" when the topology names none. */
  public String rack;
  public long ts;
  public long seq;

  // GPU
  public String node;
  public int gpu;
  public String model;
  public Double tempC;
  public Double memTempC;
  public Double powerW;
  public Double powerLimitW;
  public Long throttleReasons;
  /** The GPU's cumulative energy counter, mJ (null where its agent's source gives none). */
  public Long energyMj;
  public Double slowdownTempC;
  public Double memMaxTempC;
  public Double tdpW;
  public Double rackCapacityKw;
  public String coolingType;

  // PDU and coolant
  public String device;
  public String loop;
  public String point;
  public Double watts;
  public Double supplyTempC;
  public Double supplyMaxC;
  public Double flowLpm;
  public Double flowMinLpm;

  public ThermalInput() {}

  /**
   * Total order within a tick: time, kind, then the input's identity (node and GPU index, or device
   * and outlet/loop), then agent sequence. Field by field, without building an identity string per
   * input (that was 1 % of the analytics' CPU).
   */
  public static final java.util.Comparator<ThermalInput> ORDER = (a, b) -> {
    int c = Long.compare(a.ts, b.ts);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(a.kind, b.kind);
    if (c != 0) {
      return c;
    }
    if (a.kind == GPU) {
      c = compare(a.node, b.node);
      if (c == 0) {
        c = Integer.compare(a.gpu, b.gpu);
      }
    } else {
      c = compare(a.device, b.device);
      if (c == 0) {
        c = compare(a.point != null ? a.point : a.loop, b.point != null ? b.point : b.loop);
      }
    }
    return c != 0 ? c : Long.compare(a.seq, b.seq);
  };

  private static int compare(String x, String y) {
    return x == y ? 0 : x == null ? -1 : y == null ? 1 : x.compareTo(y);
  }
}
