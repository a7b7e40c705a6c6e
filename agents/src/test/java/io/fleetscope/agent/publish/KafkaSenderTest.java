package io.fleetscope.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.avro.GpuXid;
import io.fleetscope.schemas.Topics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sender decisions without a broker (Kafka's own MockProducer): a record refused for good goes to
 * the dead-letter topic with its reason and the rest go on; a retriable failure is re-sent, once,
 * in order. The real-broker behaviour is SpoolBrokerRestartIT.
 */
class KafkaSenderTest {

  /** Fails chosen agent_seq values: permanently, or once with a retriable error. */
  static final class FailingProducer extends MockProducer<String, SpecificRecord> {
    final long permanent;
    final long onceRetriable;
    final AtomicInteger retriableLeft = new AtomicInteger(1);

    FailingProducer(long permanent, long onceRetriable) {
      super(true, null, new StringSerializer(), (t, r) -> encode(r));
      this.permanent = permanent;
      this.onceRetriable = onceRetriable;
    }

    static byte[] encode(SpecificRecord r) {
      try {
        return RecordCodec.encode(r);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public synchronized Future<RecordMetadata> send(ProducerRecord<String, SpecificRecord> r, Callback cb) {
      if (r.value() instanceof GpuXid x) {
        RuntimeException fail = null;
        if (x.getAgentSeq() == permanent) fail = new RecordTooLargeException("record too large");
        if (x.getAgentSeq() == onceRetriable && retriableLeft.getAndDecrement() > 0) fail = new TimeoutException("no metadata");
        if (fail != null) {
          if (cb != null) cb.onCompletion(null, fail);
          return CompletableFuture.failedFuture(fail);
        }
      }
      return super.send(r, cb);
    }
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
  void permanentRefusalGoesToDeadLetterTopicAndTheRestIsSent(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(3, -1);
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = new KafkaSender(p.spool(), producer, m, 100).start();
      p.accept("xid", xids(5));
      awaitDrained(p);
      s.close();
    }
    List<Long> sent = producer.history().stream().filter(r -> r.topic().equals(Topics.GPU_XID))
        .map(r -> ((GpuXid) r.value()).getAgentSeq()).toList();
    assertThat(sent).containsExactly(1L, 2L, 4L, 5L);
    List<DeadLetter> dlq = producer.history().stream().filter(r -> r.topic().equals(Topics.DLQ)).map(r -> (DeadLetter) r.value()).toList();
    assertThat(dlq).singleElement().satisfies(d -> {
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
  void retriableFailureIsResentOnceInOrder(@TempDir Path dir) throws Exception {
    SelfMetrics m = new SelfMetrics();
    FailingProducer producer = new FailingProducer(-1, 2);
    try (Publisher p = new Publisher(dir, 1 << 20, 1 << 16, m)) {
      KafkaSender s = new KafkaSender(p.spool(), producer, m, 100).start();
      p.accept("xid", xids(5));
      awaitDrained(p);
      s.close();
    }
    assertThat(producer.history()).extracting(r -> ((GpuXid) r.value()).getAgentSeq()).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(m.get(KafkaSender.SENT, "")).isEqualTo(5);
  }
}
