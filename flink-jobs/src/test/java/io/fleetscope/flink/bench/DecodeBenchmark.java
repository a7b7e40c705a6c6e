package io.fleetscope.flink.bench;

import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroDeserializer;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.SchemaRegistryClient;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kafka-side decoding: CPU ns per record of {@link AvroDeserializer#deserialize} (wire format,
 * registry id, schema resolution) for generated fleet.gpu.v1 and fleet.ib.v1 records, this thread's
 * CPU time. Run with {@code -Dfleetscope.avro.direct-reader=false} for Avro's resolving decoder under
 * the generated coders, and with {@code -Dfleetscope.avro.custom-coders=false} for Avro's fast reader.
 * Not a test. Args: records-per-round rounds.
 */
public final class DecodeBenchmark {
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    SchemaRegistryClient registry = new SchemaRegistryClient() {
      private final List<Schema> schemas = new ArrayList<>();

      @Override
      public synchronized int register(String subject, Schema schema) {
        int i = schemas.indexOf(schema);
        if (i < 0) {
          schemas.add(schema);
          i = schemas.size() - 1;
        }
        return i + 1;
      }

      @Override
      public synchronized Schema getById(int id) {
        return schemas.get(id - 1);
      }

      @Override
      public boolean testCompatibility(String subject, Schema schema) {
        return true;
      }
    };
    FleetGenerator gen = new FleetGenerator(250).perTopic(n);
    AvroSerializer<SpecificRecord> ser = new AvroSerializer<>(registry);
    for (String topic : List.of(Topics.GPU, Topics.IB)) {
      byte[][] payloads = new byte[1000][];
      for (int i = 0; i < payloads.length; i++) {
        payloads[i] = ser.serialize(topic, Topics.GPU.equals(topic) ? gen.gpu(i) : gen.ib(i));
      }
      @SuppressWarnings({"unchecked", "rawtypes"})
      AvroDeserializer<SpecificRecord> de = new AvroDeserializer(registry, Topics.require(topic).valueClass());
      ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
      double[] ns = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        long t0 = tmx.getCurrentThreadCpuTime();
        long sum = 0;
        for (int i = 0; i < n; i++) {
          sum += de.deserialize(topic, payloads[i % payloads.length]).getSchema().getFields().size();
        }
        ns[r] = (tmx.getCurrentThreadCpuTime() - t0) / (double) n;
        if (sum < 0) {
          System.out.println(sum);
        }
      }
      double[] sorted = ns.clone();
      java.util.Arrays.sort(sorted);
      System.out.printf("decode topic=%s custom_coders=%s direct_reader=%s bytes=%d rounds_ns_per_record=%s median_ns_per_record=%.0f%n", topic,
          System.getProperty("fleetscope.avro.custom-coders", "true"),
          System.getProperty("fleetscope.avro.direct-reader", "true"), payloads[0].length,
          java.util.Arrays.toString(java.util.Arrays.stream(ns).mapToLong(Math::round).toArray()), sorted[rounds / 2]);
    }
  }
}
