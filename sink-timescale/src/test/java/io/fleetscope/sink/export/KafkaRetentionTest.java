package io.fleetscope.sink.export;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KafkaRetentionTest {
  @Test
  void aPartitionNeverTruncatedIsReadFromTheRangesStart() {
    assertThat(KafkaRetention.of(0, 100, 40L)).isEqualTo(new KafkaRetention.Decision(true, 40, null));
    assertThat(KafkaRetention.of(0, 100, null)).isEqualTo(new KafkaRetention.Decision(true, 100, null)); // all older: nothing to read
    assertThat(KafkaRetention.of(0, 0, null)).isEqualTo(new KafkaRetention.Decision(true, 0, null)); // never written
  }

  @Test
  void aTruncatedPartitionServesTheRangeOnlyWhenARetainedRecordIsOlderThanItsStart() {
    assertThat(KafkaRetention.of(10, 100, 40L)).isEqualTo(new KafkaRetention.Decision(true, 40, null));
    KafkaRetention.Decision lost = KafkaRetention.of(40, 100, 40L);
    assertThat(lost.retained()).isFalse();
    assertThat(lost.reason()).isEqualTo("records before offset 40 deleted, the first retained one is not older than the range's start");
    // every retained record is older than the range: nothing of it was deleted
    assertThat(KafkaRetention.of(10, 100, null)).isEqualTo(new KafkaRetention.Decision(true, 100, null));
    assertThat(KafkaRetention.of(100, 100, null).reason()).isEqualTo("every record deleted up to offset 100");
  }

  @Test
  void aCompactedPartitionMustBeWhole() {
    assertThat(KafkaRetention.compactedGap(0, 5, 5)).isNull();
    assertThat(KafkaRetention.compactedGap(0, 5, 9)).isEqualTo("offsets 5..8 compacted away");
    assertThat(KafkaRetention.compactedGap(3, 0, 3)).isEqualTo("records before offset 3 deleted");
  }
}
