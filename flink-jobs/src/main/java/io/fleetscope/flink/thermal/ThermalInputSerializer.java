package io.fleetscope.flink.thermal;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import io.fleetscope.flink.io.StringValueReader;
import org.apache.flink.types.StringValue;

/**
 * Serializer of {@link ThermalInput}, the record of the shuffle from the node stage to the rack
 * stage (one per GPU sample). Flink's POJO serializer spent most of the rack stage's CPU in
 * reflection (field get/set, instance creation per field); this one writes the fields in a fixed
 * order: kind, a bit set of the non-null nullable fields, ts, seq, gpu, then the non-null strings
 * and numbers. The format is version 1 of this serializer; a field added to ThermalInput must be
 * added here (ThermalInputSerializerTest fails otherwise).
 */
public final class ThermalInputSerializer extends TypeSerializer<ThermalInput> {
  private static final long serialVersionUID = 1L;
  /** Repeated names read once (not thread safe, so this serializer is duplicated per thread). */
  private transient StringValueReader strings;

  private static final int CLUSTER = 1;
  private static final int RACK = 1 << 1;
  private static final int NODE = 1 << 2;
  private static final int MODEL = 1 << 3;
  private static final int COOLING_TYPE = 1 << 4;
  private static final int DEVICE = 1 << 5;
  private static final int LOOP = 1 << 6;
  private static final int POINT = 1 << 7;
  private static final int TEMP = 1 << 8;
  private static final int MEM_TEMP = 1 << 9;
  private static final int POWER = 1 << 10;
  private static final int POWER_LIMIT = 1 << 11;
  private static final int THROTTLE = 1 << 12;
  private static final int SLOWDOWN = 1 << 13;
  private static final int MEM_MAX = 1 << 14;
  private static final int TDP = 1 << 15;
  private static final int RACK_CAPACITY = 1 << 16;
  private static final int WATTS = 1 << 17;
  private static final int SUPPLY_TEMP = 1 << 18;
  private static final int SUPPLY_MAX = 1 << 19;
  private static final int FLOW = 1 << 20;
  private static final int FLOW_MIN = 1 << 21;
  /** Added after format 1: input written before it never sets the bit, so it still reads. */
  private static final int ENERGY = 1 << 22;

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<ThermalInput> duplicate() {
    return new ThermalInputSerializer();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ThermalInputSerializer;
  }

  @Override
  public int hashCode() {
    return ThermalInputSerializer.class.hashCode();
  }

  @Override
  public ThermalInput createInstance() {
    return new ThermalInput();
  }

  @Override
  public ThermalInput copy(ThermalInput f) {
    if (f == null) {
      return null;
    }
    ThermalInput c = new ThermalInput();
    c.kind = f.kind;
    c.cluster = f.cluster;
    c.rack = f.rack;
    c.ts = f.ts;
    c.seq = f.seq;
    c.node = f.node;
    c.gpu = f.gpu;
    c.model = f.model;
    c.tempC = f.tempC;
    c.memTempC = f.memTempC;
    c.powerW = f.powerW;
    c.powerLimitW = f.powerLimitW;
    c.throttleReasons = f.throttleReasons;
    c.slowdownTempC = f.slowdownTempC;
    c.memMaxTempC = f.memMaxTempC;
    c.tdpW = f.tdpW;
    c.rackCapacityKw = f.rackCapacityKw;
    c.coolingType = f.coolingType;
    c.device = f.device;
    c.loop = f.loop;
    c.point = f.point;
    c.watts = f.watts;
    c.supplyTempC = f.supplyTempC;
    c.supplyMaxC = f.supplyMaxC;
    c.flowLpm = f.flowLpm;
    c.flowMinLpm = f.flowMinLpm;
    c.energyMj = f.energyMj;
    return c;
  }

  @Override
  public ThermalInput copy(ThermalInput from, ThermalInput reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(ThermalInput r, DataOutputView out) throws IOException {
    int present = (r.cluster != null ? CLUSTER : 0) | (r.rack != null ? RACK : 0) | (r.node != null ? NODE : 0)
        | (r.model != null ? MODEL : 0) | (r.coolingType != null ? COOLING_TYPE : 0) | (r.device != null ? DEVICE : 0)
        | (r.loop != null ? LOOP : 0) | (r.point != null ? POINT : 0) | (r.tempC != null ? TEMP : 0)
        | (r.memTempC != null ? MEM_TEMP : 0) | (r.powerW != null ? POWER : 0) | (r.powerLimitW != null ? POWER_LIMIT : 0)
        | (r.throttleReasons != null ? THROTTLE : 0) | (r.slowdownTempC != null ? SLOWDOWN : 0)
        | (r.memMaxTempC != null ? MEM_MAX : 0) | (r.tdpW != null ? TDP : 0) | (r.rackCapacityKw != null ? RACK_CAPACITY : 0)
        | (r.watts != null ? WATTS : 0) | (r.supplyTempC != null ? SUPPLY_TEMP : 0) | (r.supplyMaxC != null ? SUPPLY_MAX : 0)
        | (r.flowLpm != null ? FLOW : 0) | (r.flowMinLpm != null ? FLOW_MIN : 0) | (r.energyMj != null ? ENERGY : 0);
    out.writeInt(r.kind);
    out.writeInt(present);
    out.writeLong(r.ts);
    out.writeLong(r.seq);
    out.writeInt(r.gpu);
    string(out, present, CLUSTER, r.cluster);
    string(out, present, RACK, r.rack);
    string(out, present, NODE, r.node);
    string(out, present, MODEL, r.model);
    string(out, present, COOLING_TYPE, r.coolingType);
    string(out, present, DEVICE, r.device);
    string(out, present, LOOP, r.loop);
    string(out, present, POINT, r.point);
    number(out, present, TEMP, r.tempC);
    number(out, present, MEM_TEMP, r.memTempC);
    number(out, present, POWER, r.powerW);
    number(out, present, POWER_LIMIT, r.powerLimitW);
    if ((present & THROTTLE) != 0) {
      out.writeLong(r.throttleReasons);
    }
    number(out, present, SLOWDOWN, r.slowdownTempC);
    number(out, present, MEM_MAX, r.memMaxTempC);
    number(out, present, TDP, r.tdpW);
    number(out, present, RACK_CAPACITY, r.rackCapacityKw);
    number(out, present, WATTS, r.watts);
    number(out, present, SUPPLY_TEMP, r.supplyTempC);
    number(out, present, SUPPLY_MAX, r.supplyMaxC);
    number(out, present, FLOW, r.flowLpm);
    number(out, present, FLOW_MIN, r.flowMinLpm);
    if ((present & ENERGY) != 0) {
      out.writeLong(r.energyMj);
    }
  }

  @Override
  public ThermalInput deserialize(DataInputView in) throws IOException {
    ThermalInput r = new ThermalInput();
    r.kind = in.readInt();
    int present = in.readInt();
    r.ts = in.readLong();
    r.seq = in.readLong();
    r.gpu = in.readInt();
    r.cluster = string(in, present, CLUSTER);
    r.rack = string(in, present, RACK);
    r.node = string(in, present, NODE);
    r.model = string(in, present, MODEL);
    r.coolingType = string(in, present, COOLING_TYPE);
    r.device = string(in, present, DEVICE);
    r.loop = string(in, present, LOOP);
    r.point = string(in, present, POINT);
    r.tempC = number(in, present, TEMP);
    r.memTempC = number(in, present, MEM_TEMP);
    r.powerW = number(in, present, POWER);
    r.powerLimitW = number(in, present, POWER_LIMIT);
    r.throttleReasons = (present & THROTTLE) != 0 ? in.readLong() : null;
    r.slowdownTempC = number(in, present, SLOWDOWN);
    r.memMaxTempC = number(in, present, MEM_MAX);
    r.tdpW = number(in, present, TDP);
    r.rackCapacityKw = number(in, present, RACK_CAPACITY);
    r.watts = number(in, present, WATTS);
    r.supplyTempC = number(in, present, SUPPLY_TEMP);
    r.supplyMaxC = number(in, present, SUPPLY_MAX);
    r.flowLpm = number(in, present, FLOW);
    r.flowMinLpm = number(in, present, FLOW_MIN);
    r.energyMj = (present & ENERGY) != 0 ? in.readLong() : null;
    return r;
  }

  @Override
  public ThermalInput deserialize(ThermalInput reuse, DataInputView in) throws IOException {
    return deserialize(in);
  }

  @Override
  public void copy(DataInputView in, DataOutputView out) throws IOException {
    serialize(deserialize(in), out);
  }

  private static void string(DataOutputView out, int present, int bit, String s) throws IOException {
    if ((present & bit) != 0) {
      StringValue.writeString(s, out);
    }
  }

  private static void number(DataOutputView out, int present, int bit, Double d) throws IOException {
    if ((present & bit) != 0) {
      out.writeDouble(d);
    }
  }

  private String string(DataInputView in, int present, int bit) throws IOException {
    if ((present & bit) == 0) {
      return null;
    }
    if (strings == null) {
      strings = new StringValueReader();
    }
    return strings.read(in);
  }

  private static Double number(DataInputView in, int present, int bit) throws IOException {
    return (present & bit) != 0 ? in.readDouble() : null;
  }

  @Override
  public TypeSerializerSnapshot<ThermalInput> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Snapshot for restore (format version 1). */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ThermalInput> {
    public Snapshot() {
      super(ThermalInputSerializer::new);
    }
  }
}
