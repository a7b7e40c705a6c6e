package io.fleetscope.agent.publish;

import io.fleetscope.agent.schedule.SelfMetrics;
import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.schemas.JsonLines;
import io.fleetscope.schemas.Topics;
import io.fleetscope.serde.AvroSerializer;
import io.fleetscope.serde.RegistryException;
import io.fleetscope.serde.WireFormat;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains the spool to Kafka, in order, on its own thread. The producer is idempotent with an
 * unbounded delivery timeout, so while the broker is down sends simply wait (and the spool grows);
 * a batch is acknowledged in the spool only after the broker acked all of it. A record the broker
 * or the registry refuses for good goes to {@code fleet.dlq.v1} with its reason, counted.
 *
 * <p>The spooled Avro bytes are sent as they are, behind the Confluent wire-format header with the
 * registry id of the topic's schema (looked up once per topic): no decode and re-encode per record.
 * After the first record of a batch arrives the sender waits {@code gather} for the rest of the
 * round's collectors, so one round costs one request and one spool acknowledgement, not one per
 * collector.
 */
public final class KafkaSender implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KafkaSender.class);
  public static final String SENT = "fleetscope_agent_records_sent_total";
  public static final String FAILED = "fleetscope_agent_records_failed_total";
  public static final String UP = "fleetscope_agent_kafka_up";
  public static final String DLQ_TRUNCATED = "fleetscope_agent_dead_letters_truncated_total";

  private final Spool spool;
  private volatile Producer<String, byte[]> producer;
  private final KafkaConnector connector;
  private String registryUrl = "";
  private String bootstrap = "";
  private final AvroSerializer<SpecificRecord> serializer;
  private final SelfMetrics metrics;
  private final Thread thread;
  private volatile boolean running = true;
  private final int maxBatch;
  private final long gatherMs;
  private long backoffMs = 0;
  private long outageSince = -1;
  private String waitingFor = "";

  /**
   * @param serializer gives the registry id of each topic's schema (registering it when allowed)
   *     and encodes dead letters
   * @param gather how long to wait, once a record is there, for more before sending (0: send at once)
   */
  public KafkaSender(Spool spool, Producer<String, byte[]> producer, AvroSerializer<SpecificRecord> serializer, SelfMetrics metrics,
      int maxBatch, java.time.Duration gather) {
    this(spool, producer, null, serializer, metrics, maxBatch, gather);
  }

  /**
   * A sender that builds its producer itself, through {@code connector}, and retries (capped
   * back-off) until it can: the agent starts and spools even when the brokers' names do not
   * resolve yet. The sender owns (and closes) that producer.
   */
  public KafkaSender(Spool spool, KafkaConnector connector, AvroSerializer<SpecificRecord> serializer, SelfMetrics metrics,
      int maxBatch, java.time.Duration gather) {
    this(spool, null, connector, serializer, metrics, maxBatch, gather);
  }

  private KafkaSender(Spool spool, Producer<String, byte[]> producer, KafkaConnector connector, AvroSerializer<SpecificRecord> serializer,
      SelfMetrics metrics, int maxBatch, java.time.Duration gather) {
    this.spool = spool;
    this.producer = producer;
    this.connector = connector;
    this.serializer = serializer;
    this.metrics = metrics;
    this.maxBatch = maxBatch;
    this.gatherMs = gather.toMillis();
    metrics.declare(SENT, "counter", "Records acknowledged by Kafka.")
        .declare(FAILED, "counter", "Records refused for good (sent to fleet.dlq.v1 instead), by reason.")
        .declare(UP, "gauge", "1 while the last send to Kafka succeeded.")
        .declare(DLQ_TRUNCATED, "counter", "Dead letters cut to fit Kafka's max.request.size (reason says so).");
    metrics.inc(SENT, "", 0);
    this.thread = new Thread(this::loop, "kafka-sender");
    this.thread.setDaemon(true);
  }

  /** Names the broker list and registry in the outage log lines (what the agent waits for). */
  public KafkaSender describing(String bootstrap, String registryUrl) {
    this.bootstrap = bootstrap;
    this.registryUrl = registryUrl;
    return this;
  }

  public KafkaSender start() {
    thread.start();
    return this;
  }

  private void loop() {
    Spool.Position cursor = spool.acked();
    while (running) {
      try {
        if (producer == null && !connect()) continue;
        List<Spool.Read> batch = spool.read(cursor, maxBatch, 4 << 20, 500);
        if (batch.isEmpty()) continue;
        if (gatherMs > 0 && batch.size() < maxBatch) batch = gather(batch);
        cursor = sendBatch(batch);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        log.warn("kafka sender error error={}", e.toString());
        backoff();
        try {
          Thread.sleep(backoffMs);
        } catch (InterruptedException ie) {
          return;
        }
        cursor = spool.acked();
      }
    }
  }

  /** One connection attempt; after a failure sleeps the (capped) back-off. */
  private boolean connect() throws InterruptedException {
    Producer<String, byte[]> p = connector.tryConnect();
    if (p != null) {
      producer = p;
      backoffMs = 0;
      return true;
    }
    metrics.set(UP, "", 0);
    backoff();
    Thread.sleep(backoffMs);
    return false;
  }

  /** Waits {@code gatherMs}, then adds what was spooled meanwhile (up to the batch limit). */
  private List<Spool.Read> gather(List<Spool.Read> batch) throws Exception {
    Thread.sleep(gatherMs);
    List<Spool.Read> more = spool.read(batch.get(batch.size() - 1).next(), maxBatch - batch.size(), 4 << 20, 0);
    if (more.isEmpty()) return batch;
    List<Spool.Read> all = new ArrayList<>(batch.size() + more.size());
    all.addAll(batch);
    all.addAll(more);
    return all;
  }

  /**
   * Sends a batch until every record of it is either acked or refused for good, then acknowledges
   * the whole batch in the spool. Records that failed for a retriable reason (broker or registry
   * unreachable, metadata timeout) are re-sent - only those, in their original order - after a
   * backoff, so nothing the broker already acked is sent twice.
   */
  private Spool.Position sendBatch(List<Spool.Read> batch) throws Exception {
    List<SpoolEntry> entries = new ArrayList<>(batch.size());
    List<byte[]> values = new ArrayList<>(batch.size());
    List<Integer> todo = new ArrayList<>();
    for (Spool.Read r : batch) {
      SpoolEntry e = r.entry();
      if (e.isMark()) continue;   // a collector's state, kept in the spool only
      entries.add(e);
      values.add(null);
      String unknown = RecordCodec.schemaMismatch(e);
      if (unknown != null) {
        deadLetter(e, "undecodable spool entry: " + unknown, new java.io.IOException(unknown));
      } else {
        todo.add(entries.size() - 1);
      }
    }
    long sent = 0;
    while (!todo.isEmpty()) {
      List<Integer> retry = new ArrayList<>();
      List<Integer> queued = new ArrayList<>();
      List<AtomicReference<Exception>> errors = new ArrayList<>();
      Exception cause = null;
      for (int k = 0; k < todo.size(); k++) {
        int i = todo.get(k);
        SpoolEntry e = entries.get(i);
        AtomicReference<Exception> err = new AtomicReference<>();
        try {
          if (values.get(i) == null) values.set(i, frame(e));
          var f = producer.send(new ProducerRecord<>(e.topic(), e.key(), values.get(i)), (md, ex) -> err.set(ex));
          Exception now = f.isDone() ? failure(f) : null;
          if (now instanceof RetriableException) {
            // failed before it was queued (e.g. no metadata while the broker is down): keep the
            // order - nothing after it may go out first
            cause = now;
            retry.addAll(todo.subList(k, todo.size()));
            break;
          }
          queued.add(i);
          errors.add(err);
        } catch (SerializationException | RegistryException ex) {
          if (permanent(ex)) {
            deadLetter(e, "schema refused by the registry: " + ex.getMessage(), ex);
            continue;
          }
          cause = ex;
          retry.addAll(todo.subList(k, todo.size()));
          break;
        } catch (org.apache.kafka.common.KafkaException ex) {
          cause = ex;
          retry.addAll(todo.subList(k, todo.size()));
          break;
        }
      }
      producer.flush();
      for (int q = 0; q < queued.size(); q++) {
        Exception ex = errors.get(q).get();
        int i = queued.get(q);
        if (ex == null) {
          sent++;
        } else if (ex instanceof RetriableException) {
          retry.add(i);
          if (cause == null) cause = ex;
        } else {
          deadLetter(entries.get(i), "refused by Kafka: " + ex.getMessage(), ex);
        }
      }
      retry.sort(Integer::compare);
      todo = retry;
      if (!todo.isEmpty()) {
        metrics.set(UP, "", 0);
        String waiting = registryCause(cause) ? "registry" : "kafka";
        if (outageSince < 0 || !waiting.equals(waitingFor)) {
          if (outageSince < 0) outageSince = System.currentTimeMillis();
          waitingFor = waiting;
          if (waiting.equals("registry")) {
            log.warn("schema registry unavailable, spooling registry={} pending_in_batch={} error={}", registryUrl, todo.size(), cause.getMessage());
          } else {
            log.warn("kafka unavailable, spooling bootstrap={} pending_in_batch={} error={}", bootstrap, todo.size(),
                cause == null ? "" : cause.getMessage());
          }
        }
        backoff();
        if (!running) return spool.acked();
        Thread.sleep(backoffMs);
      }
    }
    metrics.inc(SENT, "", sent);
    Spool.Position next = batch.get(batch.size() - 1).next();
    spool.ack(next);
    metrics.set(Publisher.SPOOL_BYTES, "", spool.bytes());
    metrics.set(UP, "", 1);
    if (outageSince >= 0) {
      log.info("kafka and registry available again outage_ms={} spool_bytes={}", System.currentTimeMillis() - outageSince, spool.bytes());
      outageSince = -1;
      waitingFor = "";
    }
    backoffMs = 0;
    return next;
  }

  private static Exception failure(java.util.concurrent.Future<?> f) {
    try {
      f.get();
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause() instanceof Exception ex ? ex : e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e;
    }
  }

  /** The spooled Avro bytes behind the wire-format header with the registry id of the topic's schema. */
  private byte[] frame(SpoolEntry e) {
    int id = serializer.schemaId(e.topic(), Topics.require(e.topic()).schema());
    byte[] out = new byte[WireFormat.HEADER_SIZE + e.avro().length];
    ByteBuffer bb = ByteBuffer.wrap(out);
    WireFormat.writeHeader(bb, id);
    bb.put(e.avro());
    return out;
  }

  private static boolean registryCause(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof RegistryException) return true;
    }
    return false;
  }

  private static boolean permanent(RuntimeException ex) {
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

  private void deadLetter(SpoolEntry e, String reason, Exception ex) {
    metrics.inc(FAILED, SelfMetrics.labels("topic", e.topic()), 1);
    log.warn("record refused, sent to dlq topic={} agent_seq={} reason={}", e.topic(), e.seq(), reason.replace('\n', ' '));
    String json = null;
    try {
      json = JsonLines.valueToJson(RecordCodec.decode(e));
    } catch (Exception ignored) {
      // not decodable with this agent's schemas: keep the raw bytes only
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
      DeadLetterFit.Fitted fitted = DeadLetterFit.fit(dl, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
      if (fitted.truncated()) {
        metrics.inc(DLQ_TRUNCATED, SelfMetrics.labels("topic", e.topic()), 1);
        log.warn("dead letter truncated to fit agent_seq={} {}", e.seq(), fitted.describe(DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES));
      }
      producer.send(new ProducerRecord<>(Topics.DLQ, e.key(), serializer.serialize(Topics.DLQ, fitted.deadLetter())));
    } catch (RuntimeException dlqEx) {
      log.error("dead letter not sent topic={} agent_seq={} error={}", e.topic(), e.seq(), dlqEx.getMessage());
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(5_000);
    Producer<String, byte[]> p = producer;
    if (connector != null && p != null) p.close(java.time.Duration.ofSeconds(5));
  }
}
