package io.fleetscope.flink.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.Anomaly;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Kafka timestamp of an output record (KafkaOutputSink.Encoder). */
class KafkaOutputSinkTimestampTest {
  private static final long EVENT_TS = 1_700_000_000_000L;

  private static Anomaly anomaly() {
    return Anomaly.newBuilder().setTs(EVENT_TS).setFingerprint("f").setStatus("firing")
        .setLabels(Map.of("alertname", "GpuXid")).setAnnotations(Map.of()).setStartsAt(EVENT_TS).build();
  }

  @Test
  void aRecordWithAStreamTimestampKeepsIt() {
    assertThat(KafkaOutputSink.Encoder.kafkaTimestamp(anomaly(), 42L)).isEqualTo(42L);
  }

  @Test
  void aRecordWithoutOneGetsItsOwnEventTimeNotTheProducersClock() {
    // as an anomaly released by a fast path's processing-time timer reaches the sink: a replay's
    // months-old anomaly stamped with the wall clock would outlive or undercut the topic's retention
    assertThat(KafkaOutputSink.Encoder.kafkaTimestamp(anomaly(), null)).isEqualTo(EVENT_TS);
  }

  @Test
  void aRecordStampedAtTheEndOfInputGetsItsOwnEventTime() {
    // the end-of-input timer's time, which the broker refuses ("out of range") and which failed the job
    assertThat(KafkaOutputSink.Encoder.kafkaTimestamp(anomaly(), Long.MAX_VALUE)).isEqualTo(EVENT_TS);
  }
}
