package io.fleetscope.agent.schedule;

import io.fleetscope.agent.core.AgentRecord;
import io.fleetscope.agent.core.CollectContext;
import io.fleetscope.agent.core.Collector;
import io.fleetscope.agent.core.RecordSink;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every collector on its own thread, once per its interval, with a deadline per round. A round
 * that throws or passes its deadline (the thread is interrupted, the records are dropped) is counted
 * and logged as one line; while a hung round is still running, that collector's next rounds are
 * skipped (and counted) - the other collectors are never affected.
 */
public final class Scheduler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

  /** A collector with its interval and per-round deadline. */
  public record Job(Collector collector, Duration interval, Duration timeout) {}

  /** What one collector produced in one round. */
  public record Outcome(String collector, String result, List<AgentRecord> records, String error) {}

  public static final String DURATION = "fleetscope_agent_collector_duration_seconds";
  public static final String SUCCESS = "fleetscope_agent_collector_success";
  public static final String ROUNDS = "fleetscope_agent_collector_rounds_total";
  public static final String RECORDS = "fleetscope_agent_collector_records_total";
  public static final String LAST_RECORDS = "fleetscope_agent_collector_last_records";
  public static final String LAST_OK = "fleetscope_agent_collector_last_success_timestamp_seconds";

  private final List<Worker> workers = new ArrayList<>();
  private final String cluster;
  private final String node;
  private final Clock clock;
  private final SelfMetrics metrics;
  private final ScheduledExecutorService timer;

  public Scheduler(List<Job> jobs, String cluster, String node, Clock clock, SelfMetrics metrics) {
    this.cluster = cluster;
    this.node = node;
    this.clock = clock;
    this.metrics = metrics;
    metrics.declare(DURATION, "gauge", "Duration of the collector's last round.")
        .declare(SUCCESS, "gauge", "1 if the collector's last round succeeded, else 0.")
        .declare(ROUNDS, "counter", "Collector rounds by result: ok, error, timeout, skipped (previous round still running).")
        .declare(RECORDS, "counter", "Records produced by the collector.")
        .declare(LAST_RECORDS, "gauge", "Records produced by the collector's last successful round.")
        .declare(LAST_OK, "gauge", "Unix time of the collector's last successful round.");
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "agent-timer"));
    for (Job j : jobs) workers.add(new Worker(j));
  }

  /**
   * Runs one round of every collector at sample time {@code ts}, concurrently, and waits for each up
   * to its deadline. Outcomes are in job order (deterministic output for --once).
   */
  public List<Outcome> runOnce(long ts) throws InterruptedException {
    return runOnce(ts, null);
  }

  /** {@link #runOnce(long)}, each collector's records handed to {@code sink} (null: none) as in {@link #start}. */
  public List<Outcome> runOnce(long ts, RecordSink sink) throws InterruptedException {
    List<Future<Outcome>> futures = new ArrayList<>();
    for (Worker w : workers) futures.add(w.submit(ts, sink));
    List<Outcome> out = new ArrayList<>();
    for (int i = 0; i < workers.size(); i++) {
      Worker w = workers.get(i);
      try {
        out.add(futures.get(i).get(w.job.timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS));
      } catch (CancellationException | TimeoutException e) {
        out.add(new Outcome(w.name, "timeout", List.of(), "no result within " + w.job.timeout.toMillis() + "ms"));
      } catch (ExecutionException e) {
        out.add(new Outcome(w.name, "error", List.of(), String.valueOf(e.getCause())));
      }
    }
    return out;
  }

  /** Starts the periodic rounds; each round's records go to {@code sink}. Rounds align to the interval. */
  public void start(RecordSink sink) {
    long now = clock.millis();
    for (Worker w : workers) {
      long period = w.job.interval.toMillis();
      long first = (now / period + 1) * period;
      timer.scheduleAtFixedRate(() -> w.tick(sink, period), first - now, period, TimeUnit.MILLISECONDS);
    }
  }

  private final class Worker {
    final Job job;
    final String name;
    final String label;
    final ExecutorService thread;
    volatile Future<Outcome> inFlight;
    /** Whether the collector was given its checkpoint (on its own thread, before its first round). */
    private boolean restored;

    Worker(Job job) {
      this.job = job;
      this.name = job.collector.name();
      this.label = SelfMetrics.labels("collector", name);
      this.thread = Executors.newSingleThreadExecutor(r -> daemon(r, "collector-" + name));
      for (String result : List.of("ok", "error", "timeout", "skipped")) {
        metrics.inc(ROUNDS, SelfMetrics.labels("collector", name, "result", result), 0);
      }
      metrics.inc(RECORDS, label, 0);
    }

    void tick(RecordSink sink, long period) {
      long ts = clock.millis() / period * period;
      Future<Outcome> prev = inFlight;
      if (prev != null && !prev.isDone()) {
        metrics.inc(ROUNDS, SelfMetrics.labels("collector", name, "result", "skipped"), 1);
        log.warn("collector round skipped collector={} reason=previous-round-still-running", name);
        return;
      }
      inFlight = submit(ts, sink);
    }

    Future<Outcome> submit(long ts, RecordSink sink) {
      // Whoever claims the round first, its end or its deadline, counts it: a round is never
      // counted twice, and the timeout is counted before the cancelled future returns to a waiter.
      AtomicBoolean claimed = new AtomicBoolean();
      Future<Outcome> f = thread.submit(() -> round(ts, sink, claimed));
      timer.schedule(() -> {
        if (claimed.compareAndSet(false, true)) {
          metrics.inc(ROUNDS, SelfMetrics.labels("collector", name, "result", "timeout"), 1);
          metrics.set(SUCCESS, label, 0);
          log.warn("collector round timeout collector={} deadline_ms={}", name, job.timeout.toMillis());
          f.cancel(true);
        }
      }, job.timeout.toMillis(), TimeUnit.MILLISECONDS);
      return f;
    }

    /** The round's records went nowhere (deadline passed, sink refused): the collector may read them again. */
    private void discard(List<AgentRecord> records) {
      try {
        job.collector.discarded();
      } catch (Exception e) {
        log.warn("collector discard failed collector={} records={} error={}", name, records.size(), e.getMessage());
      }
    }

    Outcome round(long ts, RecordSink sink, AtomicBoolean claimed) {
      long t0 = System.nanoTime();
      List<AgentRecord> records;
      String checkpoint;
      try {
        if (!restored) {
          job.collector.restore(sink == null ? null : sink.checkpoint(name));
          restored = true;
        }
        records = job.collector.collect(new CollectContext(ts, cluster, node));
        if (records == null) records = List.of();
        checkpoint = sink != null && sink.durable() ? job.collector.checkpoint() : null;
      } catch (Exception | LinkageError e) {
        double secs = (System.nanoTime() - t0) / 1e9;
        metrics.set(DURATION, label, secs);
        if (!claimed.compareAndSet(false, true)) return new Outcome(name, "timeout", List.of(), "deadline passed");
        metrics.set(SUCCESS, label, 0);
        metrics.inc(ROUNDS, SelfMetrics.labels("collector", name, "result", "error"), 1);
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        log.warn("collector round failed collector={} ms={} error={}", name, Math.round(secs * 1000), why.replace('\n', ' '));
        return new Outcome(name, "error", List.of(), why);
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      metrics.set(DURATION, label, secs);
      if (!claimed.compareAndSet(false, true)) {
        discard(records);
        return new Outcome(name, "timeout", List.of(), "deadline passed");
      }
      metrics.set(SUCCESS, label, 1);
      metrics.inc(ROUNDS, SelfMetrics.labels("collector", name, "result", "ok"), 1);
      metrics.inc(RECORDS, label, records.size());
      metrics.set(LAST_RECORDS, label, records.size());
      metrics.set(LAST_OK, label, clock.millis() / 1000.0);
      if (sink != null && (!records.isEmpty() || checkpoint != null)) {
        try {
          sink.accept(name, records, checkpoint);
        } catch (Exception e) {
          log.error("records not accepted collector={} records={} error={}", name, records.size(), e.getMessage());
          discard(records);
          return new Outcome(name, "ok", records, null);
        }
      }
      if (sink != null && sink.durable()) {
        try {
          job.collector.committed();
        } catch (Exception e) {
          log.warn("collector position not saved collector={} error={}", name, e.getMessage());
        }
      }
      return new Outcome(name, "ok", records, null);
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    for (Worker w : workers) {
      w.thread.shutdownNow();
      try {
        w.job.collector.close();
      } catch (Exception e) {
        log.warn("collector close failed collector={} error={}", w.name, e.getMessage());
      }
    }
  }
}
