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

  /** {@link #id()}, built once (transient: not a field Flink serializes). */
  private transient String id;

  /** Identity within a tick, for a total order. */
  public String id() {
    String i = id;
    if (i == null) {
      i = kind == GPU ? node + "/" + gpu : device + "/" + (point != null ? point : loop);
      id = i;
    }
    return i;
  }

  public static final java.util.Comparator<ThermalInput> ORDER = java.util.Comparator
      .comparingLong((ThermalInput i) -> i.ts)
      .thenComparingInt(i -> i.kind)
      .thenComparing(ThermalInput::id)
      .thenComparingLong(i -> i.seq);
}
