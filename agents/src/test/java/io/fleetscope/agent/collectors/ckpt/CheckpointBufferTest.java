package io.fleetscope.agent.collectors.ckpt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CheckpointBufferTest {

  static final long T0 = 1_764_680_000_000L;

  static CheckpointPost start(String job, long step, Long startedTs) {
    return new CheckpointPost(job, step, 0, "lustre", "started", startedTs, null, null);
  }

  static CheckpointPost finish(String job, long step, Long startedTs, Long finishedTs) {
    return new CheckpointPost(job, step, 100, "lustre", "completed", startedTs, finishedTs, null);
  }

  @Test
  void stampsMissingTimesWithTheServerClockAndPairsAFinishWithItsStart() {
    CheckpointBuffer b = new CheckpointBuffer(10, 10);
    assertThat(b.offer(start("j", 5, null), T0)).isTrue();
    assertThat(b.offer(finish("j", 5, null, null), T0 + 42_000)).isTrue();

    var events = b.drain();
    assertThat(events).hasSize(2);
    assertThat(events.get(0).startedTs()).isEqualTo(T0);
    assertThat(events.get(0).finishedTs()).isNull();
    assertThat(events.get(1).startedTs()).isEqualTo(T0);
    assertThat(events.get(1).finishedTs()).isEqualTo(T0 + 42_000);
    assertThat(events.get(1).receivedTs()).isEqualTo(T0 + 42_000);
    assertThat(b.drain()).isEmpty();
  }

  @Test
  void timesSentByTheJobWin() {
    CheckpointBuffer b = new CheckpointBuffer(10, 10);
    b.offer(finish("j", 1, T0 - 5000, T0 - 1000), T0);
    var e = b.drain().get(0);
    assertThat(e.startedTs()).isEqualTo(T0 - 5000);
    assertThat(e.finishedTs()).isEqualTo(T0 - 1000);
  }

  @Test
  void aFinishWithoutStartedTsAndWithoutAStartIsRefused() {
    CheckpointBuffer b = new CheckpointBuffer(10, 10);
    assertThatThrownBy(() -> b.offer(finish("j", 9, null, null), T0))
        .hasMessageContaining("no start was posted for job=j step=9");
    assertThat(b.size()).isZero();
  }

  @Test
  void whenFullNothingChangesAndOfferSaysSo() {
    CheckpointBuffer b = new CheckpointBuffer(2, 10);
    assertThat(b.offer(start("j", 1, null), T0)).isTrue();
    assertThat(b.offer(start("j", 2, null), T0)).isTrue();
    assertThat(b.offer(start("j", 3, null), T0)).isFalse();
    assertThat(b.rejectedFull()).isEqualTo(1);
    b.drain();
    // step 3 was never remembered: its finish needs started_ts
    assertThatThrownBy(() -> b.offer(finish("j", 3, null, null), T0)).hasMessageContaining("no start was posted");
    assertThat(b.offer(finish("j", 1, null, null), T0 + 1)).isTrue();
  }

  @Test
  void inFlightStartsAreBoundedOldestForgottenFirst() {
    CheckpointBuffer b = new CheckpointBuffer(100, 2);
    b.offer(start("j", 1, null), T0);
    b.offer(start("j", 2, null), T0 + 1);
    b.offer(start("j", 3, null), T0 + 2);
    assertThatThrownBy(() -> b.offer(finish("j", 1, null, null), T0 + 3)).hasMessageContaining("no start was posted");
    assertThat(b.offer(finish("j", 3, null, null), T0 + 3)).isTrue();
  }

  @Test
  void timesFarInTheFutureAreRefused() {
    CheckpointBuffer b = new CheckpointBuffer(10, 10);
    assertThatThrownBy(() -> b.offer(start("j", 1, T0 + 2 * CheckpointBuffer.MAX_FUTURE_MS), T0))
        .hasMessageContaining("more than 24h ahead");
  }
}
