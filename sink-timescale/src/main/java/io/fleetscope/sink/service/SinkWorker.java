package io.fleetscope.sink.service;

import io.fleetscope.avro.DeadLetter;
import io.fleetscope.schemas.DeadLetterFit;
import io.fleetscope.sink.db.Database;
import io.fleetscope.sink.write.BatchWriter;
import io.fleetscope.sink.write.CopyFormat;
import io.fleetscope.sink.write.Reject;
import io.fleetscope.sink.write.SinkRecord;
import io.fleetscope.sink.write.Tables;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
  private volatile boolean running = true;
  private Connection connection;
  private long lastProgress = System.currentTimeMillis();

  public SinkWorker(String name, Consumer<byte[], byte[]> consumer, Producer<String, DeadLetter> dlqProducer,
                    String dlqTopic, Database db, RecordDecoder decoder, List<String> topics,
                    Duration retryInitial, Duration retryMax, SinkMetrics metrics, boolean directFirst,
                    CopyFormat copyFormat) {
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
    while (running) {
      attempt++;
      long t0 = System.nanoTime();
      try {
        Outcome o = writeOnce(consumed);
        publishDeadLetters(o.deadLetters());
        commit(consumed);
        if (attempt > 1) {
          log.info("sink recovered worker={} attempts={}", name, attempt);
          consumer.resume(consumer.paused());
        }
        metrics.records.addAndGet(consumed.size());
        metrics.inserted.addAndGet(o.inserted());
        metrics.rejected.addAndGet(o.deadLetters().size());
        metrics.batches.incrementAndGet();
        o.rowsByTable().forEach(metrics::rowsStored);
        o.rejectedTopics().forEach(metrics::deadLettered);
        metrics.batchDone(System.nanoTime() - t0);
        log.debug("sink batch worker={} records={} inserted={} rejected={} ms={}", name, consumed.size(),
            o.inserted(), o.deadLetters().size(), (System.nanoTime() - t0) / 1_000_000);
        return;
      } catch (SQLException | RecordDecoder.RegistryUnavailableException e) {
        metrics.dbRetries.incrementAndGet();
        closeConnection();
        log.warn("sink write failed, retrying worker={} attempt={} backoff_ms={} sqlstate={} error={}", name, attempt,
            backoff.toMillis(), e instanceof SQLException s ? s.getSQLState() : "registry", firstLine(e.getMessage()));
        consumed = waitPaused(backoff, consumed);
        if (consumed.isEmpty()) {
          consumer.resume(consumer.paused());
          return;
        }
        backoff = backoff.multipliedBy(2).compareTo(retryMax) > 0 ? retryMax : backoff.multipliedBy(2);
      }
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
        dlRows.add(new SinkRecord(dlqTopic, rj.record().partition(), rj.record().offset(), rj.record().key(), null, dl));
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

  private void publishDeadLetters(List<DeadLetter> dls) {
    if (dls.isEmpty()) {
      return;
    }
    try {
      for (DeadLetter dl : dls) {
        dlqProducer.send(new ProducerRecord<>(dlqTopic, dl.getKey(), fit(dl)));
      }
      dlqProducer.flush();
    } catch (KafkaException e) {
      log.warn("sink dlq publish failed worker={} count={} error={} (the records are in dead_letters)", name, dls.size(),
          e.toString());
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
