package io.fleetscope.loadgen.bench.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The notifications a receiver got from Alertmanager, per incident (the alert's fingerprint, one
 * alert per notification group): how often it was notified firing and resolved. Thread-safe.
 */
public final class PageLedger {

  /** One incident's notifications. */
  public record Incident(String fingerprint, String receiver, String description, int firing, int resolved) {}

  /** The verdict: every incident notified firing exactly once, every one that ended notified resolved. */
  public record Verdict(int incidents, int pages, List<Incident> notifiedTwice, List<Incident> resolutionMissing,
      int resolutionsDelivered) {
    public boolean passed() {
      return incidents > 0 && notifiedTwice.isEmpty() && resolutionMissing.isEmpty();
    }
  }

  private final Map<String, Incident> incidents = new TreeMap<>();

  /** One alert of one webhook notification: {@code status} firing or resolved. */
  public synchronized void add(String receiver, String status, String fingerprint, String description) {
    Incident i = incidents.getOrDefault(fingerprint, new Incident(fingerprint, receiver, description, 0, 0));
    boolean firing = "firing".equals(status);
    incidents.put(fingerprint, new Incident(fingerprint, receiver, description, i.firing() + (firing ? 1 : 0),
        i.resolved() + (firing ? 0 : 1)));
  }

  public synchronized List<Incident> incidents() {
    return List.copyOf(incidents.values());
  }

  /**
   * {@code activeAtEnd}: fingerprints still firing in Alertmanager when the run ended, which need no
   * resolution. An incident notified firing more than once is a second page (or ticket).
   */
  public synchronized Verdict verdict(Set<String> activeAtEnd) {
    List<Incident> twice = new ArrayList<>();
    List<Incident> missing = new ArrayList<>();
    int pages = 0;
    int resolutions = 0;
    for (Incident i : incidents.values()) {
      if (i.firing() > 1) {
        twice.add(i);
      }
      if ("pager".equals(i.receiver())) {
        pages += i.firing();
      }
      if (i.resolved() > 0) {
        resolutions++;
      } else if (!activeAtEnd.contains(i.fingerprint())) {
        missing.add(i);
      }
    }
    return new Verdict(incidents.size(), pages, twice, missing, resolutions);
  }

  /** The fingerprints of the alerts Alertmanager holds as active now. */
  @FunctionalInterface
  public interface ActiveAlerts {
    Set<String> now() throws Exception;
  }

  /** How the settling waits between two readings (a test passes its own). */
  @FunctionalInterface
  public interface Pause {
    void sleep(Duration d) throws InterruptedException;
  }

  /**
   * The verdict once the notifications in flight have arrived. An incident whose resolution
   * Alertmanager has (it no longer lists the alert as active) is notified resolved only at its
   * group's next flush, up to group_interval later: read at once, the verdict counts that resolution
   * as missing. So while any is missing this reads Alertmanager and the ledger again every
   * {@code step}, for up to {@code limit}; what is still missing then is missing.
   */
  public Verdict settledVerdict(ActiveAlerts active, Duration limit, Duration step, Pause pause) throws Exception {
    long steps = Math.max(0, limit.toMillis() / Math.max(1, step.toMillis()));
    for (long i = 0; ; i++) {
      Verdict v = verdict(active.now());
      if (v.resolutionMissing().isEmpty() || i >= steps) {
        return v;
      }
      pause.sleep(step);
    }
  }
}
