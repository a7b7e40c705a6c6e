package io.fleetscope.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.schemas.Topics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RegistryException;
import io.fleetscope.serde.SchemaRegistryClient;
import io.fleetscope.serde.WireFormat;
import org.apache.avro.Schema;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sender decisions without a broker (Kafka's own MockProducer, an in-memory registry): what goes
 * out is the spooled Avro behind the wire-format header with the registry's id; a record refused
 * for good goes to the dead-letter topic with its reason and the rest go on; a retriable failure is
 * re-sent, once, in order; one round's records go out in one send. The real-broker behaviour is
 * SpoolBrokerRestartIT.
 */
class KafkaSenderTest {

  /** Subjects and ids like a registry; can refuse subjects for good or be unreachable for a while. */
  static final class MemoryRegistry implements SchemaRegistryClient {
    final Map<String, Integer> ids = new ConcurrentHashMap<>();
    final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();
    volatile String refuse = "";
    final AtomicInteger unreachableLeft = new AtomicInteger();

    @Override
    public int register(String subject, Schema schema) {
      if (unreachableLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new RegistryException(RegistryException.UNREACHABLE, 0, "registry unreachable: connection refused");
      }
      if (subject.equals(refuse)) throw new RegistryException(422, 42201, "invalid schema for " + subject);
      int id = ids.computeIfAbsent(subject + "|" + schema, k -> 100 + ids.size());
      schemas.put(id, schema);
      return id;
    }

    @Override
    public Schema getById(int id) {
      return schemas.get(id);
    }

    @Override
    public boolean testCompatibility(String subject, Schema schema) {
      return true;
    }
  }

  /** Fails chosen agent_seq values: permanently, or once with a retriable error; counts flushes. */
  static final class FailingProducer extends MockProducer<String, byte[]> {
    final long permanent;
    final long onceRetriable;
    final AtomicInteger retriableLeft = new AtomicInteger(1);
    final AtomicInteger flushes = new AtomicInteger();

    FailingProducer(long permanent, long onceRetriable) {
      super(true, null, new StringSerializer(), new ByteArraySerializer());
      this.permanent = permanent;
      this.onceRetriable = onceRetriable;
    }

    @Override
    public synchronized Future<RecordMetadata> send(ProducerRecord<String, byte[]> r, Callback cb) {
      if (r.topic().equals(Topics.GPU_XID)) {
        long seq = decode(r.value(), GpuXid.class).getAgentSeq();
        RuntimeException fail = null;
        if (seq == permanent) fail = new RecordTooLargeException("record too large");
        if (seq == onceRetriable && retriableLeft.getAndDecrement() > 0) fail = new TimeoutException("no metadata");
        if (fail != null) {
          if (cb != null) cb.onCompletion(null, fail);
          return CompletableFuture.failedFuture(fail);
        }
      }
      return super.send(r, cb);
    }

    @Override
    public void flush() {
      flushes.incrementAndGet();
      super.flush();
    }

    <T extends SpecificRecord> List<T> values(String topic, Class<T> cls) {
      return history().stream().filter(r -> r.topic().equals(topic)).map(r -> decode(r.value(), cls)).toList();
    }
  }

  /** Decodes a wire-format value (magic, 4-byte id, Avro) with the class's schema. */
  static <T extends SpecificRecord> T decode(byte[] framed, Class<T> cls) {
    try {
      Schema schema = SpecificData.get().getSchema(cls);
      var dec = DecoderFactory.get().binaryDecoder(framed, WireFormat.HEADER_SIZE, framed.length - WireFormat.HEADER_SIZE, null);
      return cls.cast(new SpecificDatumReader<SpecificRecord>(schema, schema).read(null, dec));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static KafkaSender sender(Publisher p, FailingProducer producer, MemoryRegistry registry, SelfMetrics m, Duration gather) {
    return new KafkaSender(p.spool(), producer, new AvroSerializer<>(registry), m, 100, gather).start();
  }

  static List<AgentRecord> xids(int n) {
    List<AgentRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new AgentRecord(Topics.GPU_XID, "node-a", GpuXid.newBuilder().setTs(1L).setCluster("c").setNode("node-a")
          .setAgentSeq(0L).setXid(79).setMessage("m").build()));
    }
    return out;
  }

  static void awaitDrained(Publisher p) throws Exception {
    long end = System.nanoTime() + 20_000_000_000L;
    while (p.spool().pending() > 0) {
      if (System.nanoTime() > end) throw new AssertionError("spool not drained");
      Thread.sleep(20);
    }
  }

  @Test
  void sendsTheSpooledAvroBehindTheRegistryIdOfTheTopicSchema(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(-1, -1);
    MemoryRegistry registry = new MemoryRegistry();
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = sender(p, producer, registry, m, Duration.ZERO);
      p.accept("xid", xids(3));
      awaitDrained(p);
      s.close();
    }
    int id = registry.register(Topics.GPU_XID + "-value", GpuXid.getClassSchema());
    assertThat(producer.history()).hasSize(3).allSatisfy(r -> {
      assertThat(r.key()).isEqualTo("node-a");
      assertThat(WireFormat.schemaId(r.value())).isEqualTo(id);
    });
    assertThat(producer.values(Topics.GPU_XID, GpuXid.class)).extracting(GpuXid::getAgentSeq).containsExactly(1L, 2L, 3L);
    assertThat(producer.values(Topics.GPU_XID, GpuXid.class)).allSatisfy(x -> assertThat(x.getXid()).isEqualTo(79));
  }

  @Test
  void aCollectorsCheckpointIsKeptInTheSpoolButNeverSent(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(-1, -1);
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = sender(p, producer, new MemoryRegistry(), m, Duration.ZERO);
      p.accept("xid", xids(2), "offset=1");
      p.accept("xid", List.of(), "offset=2");       // a round that read lines but found no XID
      long end = System.nanoTime() + 20_000_000_000L;
      while (p.spool().bytes() > 0 && System.nanoTime() < end) Thread.sleep(20);   // a mark-only batch is acked too
      s.close();
      assertThat(p.spool().bytes()).as("drained: the segment with the marks was deleted").isZero();
      assertThat(p.checkpoint("xid")).isEqualTo("offset=2");
    }
    assertThat(producer.history()).hasSize(2).allSatisfy(r -> assertThat(r.topic()).isEqualTo(Topics.GPU_XID));
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      assertThat(p.checkpoint("xid")).as("after a restart, from the marks file").isEqualTo("offset=2");
    }
  }

  @Test
  void permanentRefusalGoesToDeadLetterTopicAndTheRestIsSent(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(3, -1);
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = sender(p, producer, new MemoryRegistry(), m, Duration.ZERO);
      p.accept("xid", xids(5));
      awaitDrained(p);
      s.close();
    }
    assertThat(producer.values(Topics.GPU_XID, GpuXid.class)).extracting(GpuXid::getAgentSeq).containsExactly(1L, 2L, 4L, 5L);
    assertThat(producer.values(Topics.DLQ, DeadLetter.class)).singleElement().satisfies(d -> {
      assertThat(d.getStage()).isEqualTo("agent");
      assertThat(d.getSourceTopic()).isEqualTo(Topics.GPU_XID);
      assertThat(d.getReason()).contains("refused by Kafka").contains("record too large");
      assertThat(d.getPayloadJson()).contains("\"agent_seq\":3");
      assertThat(d.getErrorClass()).isEqualTo(RecordTooLargeException.class.getName());
    });
    assertThat(m.get(KafkaSender.FAILED, SelfMetrics.labels("topic", Topics.GPU_XID))).isEqualTo(1);
    assertThat(m.get(KafkaSender.SENT, "")).isEqualTo(4);
  }

  @Test
  void aDeadLetterLargerThanARequestIsCutToFitAndCounted(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(1, -1);
    AgentRecord huge = new AgentRecord(Topics.GPU_XID, "node-a", GpuXid.newBuilder().setTs(1L).setCluster("c")
        .setNode("node-a").setAgentSeq(0L).setXid(79).setMessage("m".repeat(700_000)).build());
    try (Publisher p = new Publisher(dir, 8 << 20, 2 << 20, m)) {
      KafkaSender s = sender(p, producer, new MemoryRegistry(), m, Duration.ZERO);
      p.accept("xid", List.of(huge));
      awaitDrained(p);
      s.close();
    }
    // the Avro bytes and their JSON (1.4 MB together) would exceed Kafka's 1 MB request: cut, and said so
    assertThat(producer.history()).filteredOn(r -> r.topic().equals(Topics.DLQ)).singleElement()
        .satisfies(r -> assertThat(r.value().length).isLessThan(DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES));
    assertThat(producer.values(Topics.DLQ, DeadLetter.class)).singleElement().satisfies(d -> {
      assertThat(d.getReason()).startsWith("refused by Kafka").contains(DeadLetterFit.TRUNCATED_MARK + "1048576 bytes: payload ");
      assertThat(d.getPayload().remaining() + d.getPayloadJson().length()).isGreaterThan(900_000);
    });
    assertThat(m.get(KafkaSender.DLQ_TRUNCATED, SelfMetrics.labels("topic", Topics.GPU_XID))).isEqualTo(1);
    assertThat(m.get(KafkaSender.FAILED, SelfMetrics.labels("topic", Topics.GPU_XID))).isEqualTo(1);
  }

  @Test
  void aSchemaTheRegistryRefusesGoesToTheDeadLetterTopic(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(-1, -1);
    MemoryRegistry registry = new MemoryRegistry();
    registry.refuse = Topics.GPU_XID + "-value";
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = sender(p, producer, registry, m, Duration.ZERO);
      p.accept("xid", xids(2));
      awaitDrained(p);
      s.close();
    }
    assertThat(producer.values(Topics.GPU_XID, GpuXid.class)).isEmpty();
    assertThat(producer.values(Topics.DLQ, DeadLetter.class)).hasSize(2).allSatisfy(d -> {
      assertThat(d.getReason()).contains("schema refused by the registry").contains("invalid schema");
      assertThat(d.getPayloadJson()).contains("\"xid\":79");
    });
    assertThat(m.get(KafkaSender.FAILED, SelfMetrics.labels("topic", Topics.GPU_XID))).isEqualTo(2);
  }

  @Test
  void anUnreachableRegistryIsWaitedForNotDeadLettered(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(-1, -1);
    MemoryRegistry registry = new MemoryRegistry();
    registry.unreachableLeft.set(2);
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = sender(p, producer, registry, m, Duration.ZERO);
      p.accept("xid", xids(3));
      awaitDrained(p);
      s.close();
    }
    assertThat(producer.values(Topics.GPU_XID, GpuXid.class)).extracting(GpuXid::getAgentSeq).containsExactly(1L, 2L, 3L);
    assertThat(producer.values(Topics.DLQ, DeadLetter.class)).isEmpty();
    assertThat(registry.unreachableLeft.get()).isZero();
  }

  @Test
  void retriableFailureIsResentOnceInOrder(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(-1, 2);
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = sender(p, producer, new MemoryRegistry(), m, Duration.ZERO);
      p.accept("xid", xids(5));
      awaitDrained(p);
      s.close();
    }
    assertThat(producer.values(Topics.GPU_XID, GpuXid.class)).extracting(GpuXid::getAgentSeq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(m.get(KafkaSender.SENT, "")).isEqualTo(5);
  }

  @Test
  void theCollectorsOfOneRoundGoOutInOneSend(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(-1, -1);
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = sender(p, producer, new MemoryRegistry(), m, Duration.ofMillis(300));
      p.accept("nvidia_smi", xids(2));
      Thread.sleep(30);
      p.accept("ib", xids(3));
      awaitDrained(p);
      s.close();
    }
    assertThat(producer.values(Topics.GPU_XID, GpuXid.class)).extracting(GpuXid::getAgentSeq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(producer.flushes.get()).as("one send (flush) for both collectors' records").isEqualTo(1);
  }
}
