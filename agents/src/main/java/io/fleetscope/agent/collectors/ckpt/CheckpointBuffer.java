package io.fleetscope.agent.collectors.ckpt;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded buffer between the HTTP endpoint (push) and the collector round (poll). Stamps the
 * server's time where a post has none: {@code started_ts} of a start, {@code finished_ts} of a
 * finish; a finish without {@code started_ts} takes the time of its (job, step) start, remembered
 * in a bounded LRU map. Thread-safe.
 */
public final class CheckpointBuffer {

  /** A checkpoint event with every time filled in, ready to become a record. */
  public record Stamped(long receivedTs, CheckpointPost post, long startedTs, Long finishedTs) {}

  /** Times more than this far ahead of the agent's clock are refused. */
  static final long MAX_FUTURE_MS = 24L * 3600 * 1000;

  private final int capacity;
  private final ArrayDeque<Stamped> queue = new ArrayDeque<>();
  private final Map<String, Long> inFlight;
  private long accepted;
  private long rejectedFull;

  public CheckpointBuffer(int capacity, int maxInFlight) {
    this.capacity = capacity;
    this.inFlight = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
        return size() > maxInFlight;
      }
    };
  }

  /**
   * Buffers one post received at {@code now}.
   *
   * @return false when the buffer is full (nothing was changed)
   * @throws IllegalArgumentException when the post's times are impossible
   */
  public synchronized boolean offer(CheckpointPost p, long now) {
    for (Long t : new Long[] {p.startedTs(), p.finishedTs()}) {
      if (t != null && t > now + MAX_FUTURE_MS) {
        throw new IllegalArgumentException("timestamp " + t + " is more than 24h ahead of this node's clock (" + now + ")");
      }
    }
    if (queue.size() >= capacity) {
      rejectedFull++;
      return false;
    }
    String key = p.job() + "\u0000" + p.step();
    Stamped s;
    if (p.isStart()) {
      long started = p.startedTs() != null ? p.startedTs() : now;
      inFlight.put(key, started);
      s = new Stamped(now, p, started, null);
    } else {
      long finished = p.finishedTs() != null ? p.finishedTs() : now;
      Long started = p.startedTs() != null ? p.startedTs() : inFlight.get(key);
      if (started == null) {
        throw new IllegalArgumentException("started_ts is missing and no start was posted for job=" + p.job() + " step=" + p.step()
            + ": post status=started first, or send started_ts");
      }
      if (finished < started) {
        throw new IllegalArgumentException("finished_ts (" + finished + ") is before started_ts (" + started + ")");
      }
      inFlight.remove(key);
      s = new Stamped(now, p, started, finished);
    }
    queue.add(s);
    accepted++;
    return true;
  }

  /** Takes every buffered event, oldest first. */
  public synchronized List<Stamped> drain() {
    List<Stamped> out = new ArrayList<>(queue);
    queue.clear();
    return out;
  }

  public synchronized int size() {
    return queue.size();
  }

  public synchronized long accepted() {
    return accepted;
  }

  public synchronized long rejectedFull() {
    return rejectedFull;
  }
}
