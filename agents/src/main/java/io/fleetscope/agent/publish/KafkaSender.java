package io.fleetscope.agent.publish;

import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.RegistryException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains the spool to Kafka, in order, on its own thread. The producer is idempotent with an
 * unbounded delivery timeout, so while the broker is down sends simply wait (and the spool grows);
 * a batch is acknowledged in the spool only after the broker acked all of it. A record the broker
 * or the registry refuses for good goes to {@code fleet.dlq.v1} with its reason, counted.
 */
public final class KafkaSender implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KafkaSender.class);
  public static final String SENT = "fleetscope_agent_records_sent_total";
  public static final String FAILED = "fleetscope_agent_records_failed_total";
  public static final String UP = "fleetscope_agent_kafka_up";

  private final Spool spool;
  private final Producer<String, SpecificRecord> producer;
  private final SelfMetrics metrics;
  private final Thread thread;
  private volatile boolean running = true;
  private final int maxBatch;
  private long backoffMs = 0;
  private long outageSince = -1;

  public KafkaSender(Spool spool, Producer<String, SpecificRecord> producer, SelfMetrics metrics, int maxBatch) {
    this.spool = spool;
    this.producer = producer;
    this.metrics = metrics;
    this.maxBatch = maxBatch;
    metrics.declare(SENT, "counter", "Records acknowledged by Kafka.")
        .declare(FAILED, "counter", "Records refused for good (sent to fleet.dlq.v1 instead), by reason.")
        .declare(UP, "gauge", "1 while the last send to Kafka succeeded.");
    metrics.inc(SENT, "", 0);
    this.thread = new Thread(this::loop, "kafka-sender");
    this.thread.setDaemon(true);
  }

  public KafkaSender start() {
    thread.start();
    return this;
  }

  private void loop() {
    Spool.Position cursor = spool.acked();
    while (running) {
      try {
        if (backoffMs > 0) Thread.sleep(backoffMs);
        List<Spool.Read> batch = spool.read(cursor, maxBatch, 4 << 20, 500);
        if (batch.isEmpty()) continue;
        cursor = sendBatch(batch);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        log.warn("kafka sender error error={}", e.toString());
        backoff();
        cursor = spool.acked();
      }
    }
  }

  /** Sends a batch; returns where the next read starts (after what was acked). */
  private Spool.Position sendBatch(List<Spool.Read> batch) throws Exception {
    List<Future<RecordMetadata>> futures = new ArrayList<>(batch.size());
    List<Spool.Read> queued = new ArrayList<>(batch.size());
    List<AtomicReference<Exception>> errors = new ArrayList<>(batch.size());
    Exception stop = null;
    for (Spool.Read r : batch) {
      SpoolEntry e = r.entry();
      SpecificRecord value;
      try {
        value = RecordCodec.decode(e);
      } catch (Exception ex) {
        deadLetter(e, "undecodable spool entry: " + ex.getMessage(), ex, null);
        queued.add(r);
        futures.add(null);
        errors.add(new AtomicReference<>());
        continue;
      }
      AtomicReference<Exception> err = new AtomicReference<>();
      try {
        futures.add(producer.send(new ProducerRecord<>(e.topic(), e.key(), value), (md, ex) -> err.set(ex)));
        queued.add(r);
        errors.add(err);
      } catch (SerializationException ex) {
        if (permanent(ex)) {
          deadLetter(e, "schema refused by the registry: " + ex.getMessage(), ex, value);
          queued.add(r);
          futures.add(null);
          errors.add(new AtomicReference<>());
        } else {
          stop = ex;
          break;
        }
      } catch (org.apache.kafka.common.KafkaException ex) {
        stop = ex;
        break;
      }
    }
    producer.flush();
    long sent = 0;
    for (int i = 0; i < queued.size(); i++) {
      Exception ex = errors.get(i).get();
      if (futures.get(i) == null) continue;
      if (ex != null) {
        SpoolEntry e = queued.get(i).entry();
        deadLetter(e, "refused by Kafka: " + ex.getMessage(), ex, null);
      } else {
        sent++;
      }
    }
    metrics.inc(SENT, "", sent);
    if (!queued.isEmpty()) spool.ack(queued.get(queued.size() - 1).next());
    metrics.set(Publisher.SPOOL_BYTES, "", spool.bytes());
    if (stop != null) {
      metrics.set(UP, "", 0);
      if (outageSince < 0) {
        outageSince = System.currentTimeMillis();
        log.warn("kafka unavailable, spooling error={}", stop.getMessage());
      }
      backoff();
      return spool.acked();
    }
    metrics.set(UP, "", 1);
    if (outageSince >= 0) {
      log.info("kafka available again outage_ms={} spool_bytes={}", System.currentTimeMillis() - outageSince, spool.bytes());
      outageSince = -1;
    }
    backoffMs = 0;
    return queued.get(queued.size() - 1).next();
  }

  private static boolean permanent(SerializationException ex) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof RegistryException re) {
        return !re.isUnreachable() && re.httpStatus() >= 400 && re.httpStatus() < 500 && re.httpStatus() != 408 && re.httpStatus() != 429;
      }
    }
    return false;
  }

  private void backoff() {
    backoffMs = backoffMs == 0 ? 500 : Math.min(backoffMs * 2, 30_000);
  }

  private void deadLetter(SpoolEntry e, String reason, Exception ex, SpecificRecord value) {
    metrics.inc(FAILED, SelfMetrics.labels("topic", e.topic()), 1);
    log.warn("record refused, sent to dlq topic={} agent_seq={} reason={}", e.topic(), e.seq(), reason.replace('\n', ' '));
    String json = null;
    try {
      json = value != null ? JsonLines.valueToJson(value) : null;
    } catch (RuntimeException ignored) {
      // keep the raw bytes only
    }
    DeadLetter dl = DeadLetter.newBuilder()
        .setTs(System.currentTimeMillis())
        .setStage("agent")
        .setReason(reason)
        .setSourceTopic(e.topic())
        .setKey(e.key())
        .setPayload(ByteBuffer.wrap(e.avro()))
        .setPayloadJson(json)
        .setErrorClass(ex.getClass().getName())
        .build();
    try {
      producer.send(new ProducerRecord<>(Topics.DLQ, e.key(), dl));
    } catch (RuntimeException dlqEx) {
      log.error("dead letter not sent topic={} agent_seq={} error={}", e.topic(), e.seq(), dlqEx.getMessage());
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(5_000);
  }
}
