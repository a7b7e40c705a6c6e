package io.fleetscope.flink.ckpt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.ObjectInputStream;
import org.junit.jupiter.api.Test;

/**
 * The trackers live in the analytic's saved state (Java serialization): one saved by the code before
 * issue 22 (a job with one 30 s checkpoint done and step 2 started at 600 s, never finished; written
 * with the classes of commit 6dbdd36) restores, its new settings take their defaults, and its open
 * checkpoint is judged by the fallback.
 */
class CheckpointSloStateCompatibilityTest {
  @Test
  void aTrackerSavedBeforeTheStreamClockRestoresAndIsJudged() throws Exception {
    CheckpointSloTracker t;
    try (InputStream in = getClass().getResourceAsStream("/ckpt/tracker-saved-before-issue22.bin");
        ObjectInputStream o = new ObjectInputStream(in)) {
      t = (CheckpointSloTracker) o.readObject();
    }
    assertThat(t.openCount()).isEqualTo(1);
    assertThat(t.medianCost()).isEqualTo(30.0);
    CheckpointStreamClock clock = new CheckpointStreamClock();
    long fallbackAt = CkptFixtures.t(980) - 1; // check time 679.999 s + the default 300 s
    assertThat(t.onTime("c1", "llm", fallbackAt - 1, clock)).isEmpty();
    assertThat(t.onTime("c1", "llm", fallbackAt, clock)).singleElement().satisfies(c -> {
      assertThat(c.ts()).isEqualTo(fallbackAt);
      assertThat(c.change().description()).contains("step 2 started 380 s ago").contains("from its node");
    });
  }
}
