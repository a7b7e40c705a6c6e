package io.fleetscope.flink.bench;

import io.fleetscope.avro.GpuSample;
import io.fleetscope.flink.io.AvroRecordSerializer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Round trip (serialize + deserialize) of one GpuSample through a Flink TypeSerializer, CPU time
 * per record of this thread (not wall time: the machine is shared). Compares our Avro-binary
 * serializer with and without Avro's generated custom coders, and Flink's Kryo fallback (what a
 * SpecificRecord gets without flink-avro). Not a test. Args: records-per-round rounds.
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
    report("avro-custom-coders", new AvroRecordSerializer<>(GpuSample.class, List.of(GpuSample.class)), rs, n, rounds);
    System.setProperty("fleetscope.avro.custom-coders", "false");
    report("avro-datum-writer", new AvroRecordSerializer<>(GpuSample.class, List.of(GpuSample.class)), rs, n, rounds);
    System.setProperty("fleetscope.avro.custom-coders", "true");
    report("kryo", new KryoSerializer<>(GpuSample.class, new ExecutionConfig().getSerializerConfig()), rs, n, rounds);
  }

  private static void report(String name, TypeSerializer<GpuSample> s, GpuSample[] rs, int n, int rounds) throws Exception {
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
        sum += s.deserialize(in).getGpu();
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
