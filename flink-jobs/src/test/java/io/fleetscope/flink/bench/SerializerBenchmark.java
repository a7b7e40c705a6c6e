package io.fleetscope.flink.bench;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.io.AvroRecordSerializer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import io.fleetscope.flink.thermal.ThermalInput;
import io.fleetscope.flink.thermal.ThermalInputSerializer;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.PojoField;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Round trip (serialize + deserialize) of one GpuSample through a Flink TypeSerializer, CPU time
 * per record of this thread (not wall time: the machine is shared). Compares our Avro-binary
 * serializer with and without Avro's generated custom coders, and Flink's Kryo fallback (what a
 * SpecificRecord gets without flink-avro); and the thermal job's ThermalInput through its own
 * serializer and through Flink's POJO serializer. Not a test. Args: records-per-round rounds.
 */
public final class SerializerBenchmark {
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    FleetGenerator gen = new FleetGenerator(250).perTopic(n);
    GpuSample[] rs = new GpuSample[1000];
    for (int i = 0; i < rs.length; i++) {
      rs[i] = (GpuSample) gen.gpu(i);
    }
    System.setProperty("fleetscope.avro.custom-coders", "true");
    report("avro-custom-coders", new AvroRecordSerializer<>(GpuSample.class, List.of(GpuSample.class)), rs, GpuSample::getGpu, n, rounds);
    System.setProperty("fleetscope.avro.custom-coders", "false");
    report("avro-datum-writer", new AvroRecordSerializer<>(GpuSample.class, List.of(GpuSample.class)), rs, GpuSample::getGpu, n, rounds);
    System.setProperty("fleetscope.avro.custom-coders", "true");
    report("kryo", new KryoSerializer<>(GpuSample.class, new ExecutionConfig().getSerializerConfig()), rs, GpuSample::getGpu, n, rounds);

    // the node stage -> rack stage record of the thermal job, one per GPU sample
    ThermalInput[] ts = new ThermalInput[rs.length];
    for (int i = 0; i < rs.length; i++) {
      ts[i] = thermalInput(rs[i]);
    }
    report("thermal-input-ours", new ThermalInputSerializer(), ts, t -> t.gpu, n, rounds);
    report("thermal-input-flink-pojo", pojoSerializer(), ts, t -> t.gpu, n, rounds);
  }

  /** A GPU's ThermalInput as the node stage builds it (rack, loop, limits and cooling looked up). */
  private static ThermalInput thermalInput(GpuSample s) {
    ThermalInput i = new ThermalInput();
    i.kind = ThermalInput.GPU;
    i.cluster = s.getCluster();
    i.rack = "rack-" + (s.getNode().hashCode() & 63);
    i.ts = s.getTs();
    i.seq = s.getAgentSeq();
    i.node = s.getNode();
    i.gpu = s.getGpu();
    i.model = s.getModel();
    i.tempC = s.getTempC();
    i.memTempC = s.getMemTempC();
    i.powerW = s.getPowerW();
    i.powerLimitW = s.getPowerLimitW();
    i.throttleReasons = s.getThrottleReasons();
    i.slowdownTempC = 87.0;
    i.memMaxTempC = 95.0;
    i.tdpW = 700.0;
    i.loop = "cdu-1/loop-a";
    i.rackCapacityKw = 80.0;
    i.coolingType = "direct_liquid";
    return i;
  }

  /** Flink's POJO serializer for ThermalInput (what it used before it named its own). */
  private static TypeSerializer<ThermalInput> pojoSerializer() {
    List<PojoField> fields = new java.util.ArrayList<>();
    for (java.lang.reflect.Field f : ThermalInput.class.getDeclaredFields()) {
      int m = f.getModifiers();
      if (!java.lang.reflect.Modifier.isStatic(m) && !java.lang.reflect.Modifier.isTransient(m)) {
        fields.add(new PojoField(f, TypeInformation.of(f.getType())));
      }
    }
    return new PojoTypeInfo<>(ThermalInput.class, fields).createSerializer(new SerializerConfigImpl());
  }

  private static <T> void report(String name, TypeSerializer<T> s, T[] rs, java.util.function.ToLongFunction<T> probe, int n, int rounds)
      throws Exception {
    ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
    DataOutputSerializer out = new DataOutputSerializer(1024);
    DataInputDeserializer in = new DataInputDeserializer();
    double[] ns = new double[rounds];
    int bytes = 0;
    for (int r = 0; r < rounds; r++) {
      long t0 = tmx.getCurrentThreadCpuTime();
      long sum = 0;
      for (int i = 0; i < n; i++) {
        out.clear();
        s.serialize(rs[i % rs.length], out);
        bytes = out.length();
        in.setBuffer(out.getSharedBuffer(), 0, out.length());
        sum += probe.applyAsLong(s.deserialize(in));
      }
      ns[r] = (tmx.getCurrentThreadCpuTime() - t0) / (double) n;
      if (sum < 0) {
        System.out.println(sum);
      }
    }
    double[] sorted = ns.clone();
    java.util.Arrays.sort(sorted);
    System.out.printf("serde name=%s bytes=%d rounds_ns_per_record=%s median_ns_per_record=%.0f%n", name, bytes,
        java.util.Arrays.toString(java.util.Arrays.stream(ns).mapToLong(Math::round).toArray()), sorted[rounds / 2]);
  }
}
