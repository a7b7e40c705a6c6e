package io.fleetscope.sink.service;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.Topics;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.write.BatchWriter;
import io.fleetscope.sink.write.CopyFormat;
import io.fleetscope.sink.write.Reject;
import io.fleetscope.sink.write.SinkRecord;
import io.fleetscope.sink.write.Tables;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer thread of the sink with its own partitions and database connection. For every
 * poll: decode, write everything in one database transaction (rejected records become rows of
 * dead_letters in the same transaction), commit, publish the rejects to the DLQ topic, and only
 * then commit exactly the consumed offsets. While the database (or registry) is unavailable the
 * worker pauses its partitions and retries the same batch with exponential back-off: nothing is
 * buffered beyond the one poll, nothing is skipped.
 *
 * <p>Offsets are committed only once the broker has acknowledged the batch's dead letters: when it
 * does not within {@code sink.dlq_timeout_ms} the publish is retried with the same back-off (logged
 * once per batch), the rows being stored already. Writes wait at most {@code sink.lock_timeout_ms}
 * for a lock (a chunk being created or compressed) before the batch is retried. Any other error of a
 * batch is a defect: it is logged as one line and the same batch retried with back-off, its offsets
 * uncommitted; an error outside a batch (the poll) rewinds to the committed offsets and goes on.
 */
public final class SinkWorker implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(SinkWorker.class);
  private static final Duration POLL = Duration.ofMillis(500);
  private static final long PROGRESS_EVERY_MS = 10_000;

  private final String name;
  private final Consumer<byte[], byte[]> consumer;
  private final Producer<String, DeadLetter> dlqProducer;
  private final String dlqTopic;
  private final Database db;
  private final RecordDecoder decoder;
  private final List<String> topics;
  private final Duration retryInitial;
  private final Duration retryMax;
  private final SinkMetrics metrics;
  private final BatchWriter writer;
  private final Duration lockTimeout;
  private volatile boolean running = true;
  private Connection connection;
  private long lastProgress = System.currentTimeMillis();

  public SinkWorker(String name, Consumer<byte[], byte[]> consumer, Producer<String, DeadLetter> dlqProducer,
                    String dlqTopic, Database db, RecordDecoder decoder, List<String> topics,
                    Duration retryInitial, Duration retryMax, SinkMetrics metrics, boolean directFirst,
                    CopyFormat copyFormat, Duration lockTimeout) {
    this.lockTimeout = lockTimeout;
    this.writer = new BatchWriter(directFirst, copyFormat, metrics.paths);
    this.name = name;
    this.consumer = consumer;
    this.dlqProducer = dlqProducer;
    this.dlqTopic = dlqTopic;
    this.db = db;
    this.decoder = decoder;
    this.topics = List.copyOf(topics);
    this.retryInitial = retryInitial;
    this.retryMax = retryMax;
    this.metrics = metrics;
    metrics.kafka().add(consumer::metrics);
  }

  public void stop() {
    running = false;
    consumer.wakeup();
  }

  @Override
  public void run() {
    try {
      consumer.subscribe(topics, new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
          if (!partitions.isEmpty()) {
            log.info("sink partitions revoked worker={} partitions={}", name, partitions.size());
          }
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
          if (!partitions.isEmpty()) {
            log.info("sink partitions assigned worker={} partitions={}", name, partitions.size());
          }
        }
      });
      while (running) {
        try {
          long p0 = System.nanoTime();
          ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
          if (!records.isEmpty()) {
            long p1 = System.nanoTime();
            metrics.firstPollNanos.compareAndSet(0, p1);
            if (metrics.firstPollNanos.get() != p1) {
              metrics.pollNanos.addAndGet(p1 - p0);
            }
            process(records);
          }
          progress();
        } catch (WakeupException e) {
          throw e;
        } catch (RuntimeException e) {
          metrics.workerErrors.incrementAndGet();
          closeConnection();
          log.error("sink worker error, rewinding to the committed offsets worker={} backoff_ms={} {}", name, retryMax.toMillis(), describe(e));
          rewindToCommitted();
          waitPaused(retryMax, List.of());
          consumer.resume(consumer.paused());
        }
      }
    } catch (WakeupException e) {
      if (running) {
        throw e;
      }
    } catch (RuntimeException e) {
      log.error("sink worker stopped worker={} error={}", name, e.toString(), e);
      throw e;
    } finally {
      closeConnection();
      try {
        consumer.close(Duration.ofSeconds(5));
      } catch (RuntimeException e) {
        log.warn("sink consumer close failed worker={} error={}", name, e.toString());
      }
      log.info("sink worker stopped worker={} {}", name, metrics);
    }
  }

  private void progress() {
    long now = System.currentTimeMillis();
    if (now - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = now;
      log.info("sink progress worker={} {}", name, metrics);
    }
  }

  private void process(ConsumerRecords<byte[], byte[]> records) {
    List<ConsumerRecord<byte[], byte[]>> consumed = new ArrayList<>(records.count());
    records.forEach(consumed::add);
    Duration backoff = retryInitial;
    int attempt = 0;
    Outcome written = null;        // stored in the database; its dead letters not yet taken by the broker
    boolean dlqHeld = false;
    while (running) {
      attempt++;
      long t0 = System.nanoTime();
      try {
        if (written == null) {
          written = writeOnce(consumed);
        }
        String dlqError = publishDeadLetters(written.deadLetters());
        if (dlqError != null) {
          metrics.dlqRetries.incrementAndGet();
          if (!dlqHeld) {
            dlqHeld = true;
            log.warn("sink dlq publish failed, offsets held worker={} dead_letters={} error={} (retrying with back-off; the rows and dead_letters rows are stored)",
                name, written.deadLetters().size(), firstLine(dlqError));
          }
        } else {
          commit(consumed);
          if (attempt > 1) {
            log.info(dlqHeld ? "sink dlq publish recovered worker={} attempts={}" : "sink recovered worker={} attempts={}", name, attempt);
            consumer.resume(consumer.paused());
          }
          metrics.records.addAndGet(consumed.size());
          metrics.inserted.addAndGet(written.inserted());
          metrics.rejected.addAndGet(written.deadLetters().size());
          metrics.batches.incrementAndGet();
          written.rowsByTable().forEach(metrics::rowsStored);
          written.rejectedTopics().forEach(metrics::deadLettered);
          metrics.batchDone(System.nanoTime() - t0);
          log.debug("sink batch worker={} records={} inserted={} rejected={} ms={}", name, consumed.size(),
              written.inserted(), written.deadLetters().size(), (System.nanoTime() - t0) / 1_000_000);
          return;
        }
      } catch (SQLException | RecordDecoder.RegistryUnavailableException e) {
        metrics.dbRetries.incrementAndGet();
        closeConnection();
        log.warn("sink write failed, retrying worker={} attempt={} backoff_ms={} sqlstate={} error={}", name, attempt,
            backoff.toMillis(), e instanceof SQLException s ? s.getSQLState() : "registry", firstLine(e.getMessage()));
      } catch (WakeupException e) {
        throw e;
      } catch (RuntimeException e) {
        // a defect (in decoding, encoding, a client library): the batch stays uncommitted and is tried again
        // (a batch already stored is not written again: only its publish and commit are retried)
        metrics.workerErrors.incrementAndGet();
        closeConnection();
        log.error("sink batch failed unexpectedly, retrying worker={} attempt={} backoff_ms={} records={} {}", name, attempt,
            backoff.toMillis(), consumed.size(), describe(e));
      }
      consumed = waitPaused(backoff, consumed);
      if (consumed.isEmpty()) {
        consumer.resume(consumer.paused());
        return;
      }
      backoff = backoff.multipliedBy(2).compareTo(retryMax) > 0 ? retryMax : backoff.multipliedBy(2);
    }
  }

  /** An unexpected error as key=value: its class, first message line and where it was thrown. */
  static String describe(Throwable e) {
    StackTraceElement[] st = e.getStackTrace();
    String at = st.length == 0 ? "unknown" : st[0].getClassName().substring(st[0].getClassName().lastIndexOf('.') + 1)
        + "." + st[0].getMethodName() + ":" + st[0].getLineNumber();
    return "error_class=" + e.getClass().getSimpleName() + " error=\"" + firstLine(String.valueOf(e.getMessage())).replace('"', '\'')
        + "\" at=" + at;
  }

  /** Moves every assigned partition back to its committed offset (its beginning when none): nothing read since is skipped. */
  private void rewindToCommitted() {
    try {
      Set<TopicPartition> owned = consumer.assignment();
      Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(owned);
      List<TopicPartition> none = new ArrayList<>();
      for (TopicPartition tp : owned) {
        OffsetAndMetadata o = committed.get(tp);
        if (o == null) {
          none.add(tp);
        } else {
          consumer.seek(tp, o.offset());
        }
      }
      if (!none.isEmpty()) {
        consumer.seekToBeginning(none);
      }
    } catch (WakeupException e) {
      throw e;
    } catch (RuntimeException e) {
      log.warn("sink rewind failed worker={} {}", name, describe(e));
    }
  }

  /** A written batch: rows inserted, rows stored per table, the dead letters to publish, the topic of every reject. */
  private record Outcome(int inserted, Map<String, Long> rowsByTable, List<DeadLetter> deadLetters,
                         List<String> rejectedTopics) {}

  private Outcome writeOnce(List<ConsumerRecord<byte[], byte[]>> consumed) throws SQLException {
    long t0 = System.nanoTime();
    List<SinkRecord> good = new ArrayList<>(consumed.size());
    List<Reject> rejects = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> cr : consumed) {
      RecordDecoder.Decoded d = decoder.decode(cr);
      if (d.reject() != null) {
        rejects.add(d.reject());
      } else {
        good.add(d.record());
      }
    }
    long t1 = System.nanoTime();
    metrics.decodeNanos.addAndGet(t1 - t0);
    Connection c = connection();
    try {
      BatchWriter.Result r = writer.write(c, good);
      rejects.addAll(r.rejects());
      Map<String, Long> rowsByTable = new HashMap<>();
      for (SinkRecord g : good) {
        rowsByTable.merge(Tables.forTopic(g.topic()).table(), 1L, Long::sum);
      }
      for (Reject rj : r.rejects()) {
        rowsByTable.merge(Tables.forTopic(rj.record().topic()).table(), -1L, Long::sum);
      }
      List<String> rejectedTopics = new ArrayList<>(rejects.size());
      long now = System.currentTimeMillis();
      List<DeadLetter> dls = new ArrayList<>(rejects.size());
      List<SinkRecord> dlRows = new ArrayList<>(rejects.size());
      for (Reject rj : rejects) {
        rejectedTopics.add(rj.record().topic());
        DeadLetter dl = DeadLetters.of(rj, now);
        log.warn("sink record rejected topic={} partition={} offset={} key={} reason={}", rj.record().topic(),
            rj.record().partition(), rj.record().offset(), rj.record().key(), rj.reason());
        // the dead_letters table is the DLQ topic's, whatever sink.dlq_topic names
        dlRows.add(new SinkRecord(Topics.DLQ, rj.record().partition(), rj.record().offset(), rj.record().key(), null, dl));
        if (!dlqTopic.equals(rj.record().topic())) {
          dls.add(dl);
        }
      }
      if (!dlRows.isEmpty()) {
        BatchWriter.Result d = writer.write(c, dlRows);
        for (Reject lost : d.rejects()) {
          log.error("sink dead letter not storable topic={} partition={} offset={} reason={}", lost.record().topic(),
              lost.record().partition(), lost.record().offset(), lost.reason());
        }
      }
      long t2 = System.nanoTime();
      metrics.writeNanos.addAndGet(t2 - t1);
      c.commit();
      metrics.dbCommitNanos.addAndGet(System.nanoTime() - t2);
      return new Outcome(r.inserted(), rowsByTable, dls, rejectedTopics);
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException ignored) {
        // the connection is replaced below
      }
      throw e;
    }
  }

  /**
   * Sends the dead letters and waits for the broker's acknowledgement of every one (bounded by the
   * producer's max.block.ms and delivery.timeout.ms); null when all were taken, else why not.
   */
  private String publishDeadLetters(List<DeadLetter> dls) {
    if (dls.isEmpty()) {
      return null;
    }
    List<Future<RecordMetadata>> acks = new ArrayList<>(dls.size());
    try {
      for (DeadLetter dl : dls) {
        acks.add(dlqProducer.send(new ProducerRecord<>(dlqTopic, dl.getKey(), fit(dl))));
      }
      dlqProducer.flush();
      for (Future<RecordMetadata> f : acks) {
        f.get();
      }
      return null;
    } catch (ExecutionException e) {
      return String.valueOf(e.getCause());
    } catch (KafkaException e) {
      return e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  /** {@code dl}, cut to fit the producer's max.request.size when larger (else Kafka refuses it). */
  private DeadLetter fit(DeadLetter dl) {
    DeadLetterFit.Fitted f = DeadLetterFit.fit(dl, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    if (f.truncated()) {
      log.warn("dead letter truncated to fit worker={} {} truncated_total={}", name,
          f.describe(DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES), metrics.deadLettersTruncated.incrementAndGet());
    }
    return f.deadLetter();
  }

  private void commit(List<ConsumerRecord<byte[], byte[]>> consumed) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> cr : consumed) {
      TopicPartition tp = new TopicPartition(cr.topic(), cr.partition());
      OffsetAndMetadata prev = offsets.get(tp);
      if (prev == null || prev.offset() <= cr.offset()) {
        offsets.put(tp, new OffsetAndMetadata(cr.offset() + 1));
      }
    }
    Set<TopicPartition> owned = consumer.assignment();
    offsets.keySet().retainAll(owned);
    long t0 = System.nanoTime();
    try {
      consumer.commitSync(offsets);
      metrics.offsetCommitNanos.addAndGet(System.nanoTime() - t0);
      metrics.committedBatches.incrementAndGet();
      metrics.lastCommitNanos.set(System.nanoTime());
    } catch (CommitFailedException | RebalanceInProgressException e) {
      log.warn("sink offset commit failed worker={} error={} (rows are stored; the next owner re-reads them idempotently)",
          name, e.getMessage());
    } catch (WakeupException e) {
      throw e;
    } catch (KafkaException e) {
      // e.g. a TimeoutException after default.api.timeout.ms (60 s) without the coordinator: the
      // rows are stored, the next commit covers these offsets; thrown, it would end this worker
      // while the service runs on without it
      log.warn("sink offset commit failed worker={} error={} (rows are stored; a later commit or an idempotent re-read covers them)", name, e.toString());
    }
  }

  /**
   * Back-off with the partitions paused, still polling so the group keeps this member. Records of
   * partitions assigned meanwhile are not taken: their position is reset. Returns the batch less
   * the records of partitions this worker lost.
   */
  private List<ConsumerRecord<byte[], byte[]>> waitPaused(Duration backoff, List<ConsumerRecord<byte[], byte[]>> batch) {
    long deadline = System.nanoTime() + backoff.toNanos();
    consumer.pause(consumer.assignment());
    while (running && System.nanoTime() < deadline) {
      ConsumerRecords<byte[], byte[]> extra = consumer.poll(Duration.ofMillis(Math.min(100, backoff.toMillis())));
      Map<TopicPartition, Long> rewind = new HashMap<>();
      for (ConsumerRecord<byte[], byte[]> cr : extra) {
        rewind.merge(new TopicPartition(cr.topic(), cr.partition()), cr.offset(), Math::min);
      }
      rewind.forEach(consumer::seek);
      consumer.pause(consumer.assignment());
    }
    Set<TopicPartition> owned = consumer.assignment();
    List<ConsumerRecord<byte[], byte[]>> kept = new ArrayList<>(batch.size());
    for (ConsumerRecord<byte[], byte[]> cr : batch) {
      if (owned.contains(new TopicPartition(cr.topic(), cr.partition()))) {
        kept.add(cr);
      }
    }
    return kept;
  }

  private Connection connection() throws SQLException {
    if (connection == null || connection.isClosed()) {
      writer.reset();
      connection = db.open();
      if (!lockTimeout.isZero()) {
        try (Statement st = connection.createStatement()) {
          st.execute("SET lock_timeout = " + lockTimeout.toMillis());
        }
      }
      connection.setAutoCommit(false);
    }
    return connection;
  }

  private void closeConnection() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // already broken
      }
      connection = null;
      writer.reset();
    }
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse(s);
  }
}
