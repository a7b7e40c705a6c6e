package io.fleetscope.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetscope.avro.DeadLetter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DeadLetterFitTest {
  private static DeadLetter dl(int payloadBytes, String json) {
    byte[] p = new byte[payloadBytes];
    for (int i = 0; i < p.length; i++) {
      p[i] = (byte) i;
    }
    return DeadLetter.newBuilder().setTs(1L).setStage("streams").setReason("undecodable: bad")
        .setSourceTopic("fleet.anomalies.v1").setPartition(2).setOffset(17L).setKey("node-a")
        .setPayload(ByteBuffer.wrap(p)).setPayloadJson(json).setErrorClass("x.Y").build();
  }

  @Test
  void aDeadLetterThatFitsIsUnchanged() {
    DeadLetter d = dl(1000, "{\"a\":1}");
    DeadLetterFit.Fitted f = DeadLetterFit.fit(d, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    assertThat(f.truncated()).isFalse();
    assertThat(f.deadLetter()).isSameAs(d);
  }

  @Test
  void anOversizedPayloadIsCutToFitWithItsOriginalSizeInTheReason() {
    DeadLetter d = dl(3_000_000, null);
    DeadLetterFit.Fitted f = DeadLetterFit.fit(d, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    assertThat(f.truncated()).isTrue();
    assertThat(f.payloadBytes()).isEqualTo(3_000_000);
    DeadLetter out = f.deadLetter();
    assertThat(DeadLetterFit.encodedSize(out)).isLessThanOrEqualTo(DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES - 1024);
    int kept = out.getPayload().remaining();
    assertThat(kept).isGreaterThan(1_000_000); // cut by what is needed, not to nothing
    byte[] keptBytes = new byte[kept];
    out.getPayload().duplicate().get(keptBytes);
    byte[] original = new byte[kept];
    d.getPayload().duplicate().get(original);
    assertThat(Arrays.equals(keptBytes, original)).as("the start of the payload is kept").isTrue();
    assertThat(out.getReason()).startsWith("undecodable: bad [truncated to fit 1048576 bytes: payload " + kept
        + " of 3000000 bytes, payload_json 0 of 0 chars]");
    assertThat(out.getSourceTopic()).isEqualTo("fleet.anomalies.v1");
    assertThat(out.getOffset()).isEqualTo(17L);
  }

  @Test
  void theLogTextNamesTheSourceAndTheSizesBeforeTheCut() {
    DeadLetterFit.Fitted f = DeadLetterFit.fit(dl(3_000_000, null), DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    assertThat(f.describe(DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES)).matches("stage=\\S+ source_topic=fleet\\.anomalies\\.v1 "
        + "partition=\\S+ offset=17 payload_bytes=3000000 payload_json_chars=0 max_request_bytes=1048576");
  }

  @Test
  void payloadAndJsonTogetherAreCutAndMultiByteTextIsMeasuredInBytes() {
    String json = "\u00e9\u20ac\ud83d\ude00".repeat(200_000); // 2, 3 and 4 UTF-8 bytes: 1.8 MB
    DeadLetterFit.Fitted f = DeadLetterFit.fit(dl(600_000, json), 1_000_000);
    assertThat(f.truncated()).isTrue();
    assertThat(DeadLetterFit.encodedSize(f.deadLetter())).isLessThanOrEqualTo(1_000_000 - 1024);
    assertThat(f.deadLetter().getReason()).contains("of 600000 bytes, payload_json ")
        .contains(" of " + json.length() + " chars]");
    String kept = f.deadLetter().getPayloadJson();
    assertThat(json).startsWith(kept);
    assertThat(kept.isEmpty() || !Character.isHighSurrogate(kept.charAt(kept.length() - 1))).isTrue();
  }

  @Test
  void aHugeReasonAndKeyAreCutToo() {
    DeadLetter d = DeadLetter.newBuilder(dl(10, null)).setReason("r".repeat(2_000_000)).setKey("k".repeat(500_000)).build();
    DeadLetterFit.Fitted f = DeadLetterFit.fit(d, DeadLetterFit.DEFAULT_MAX_REQUEST_BYTES);
    assertThat(f.truncated()).isTrue();
    assertThat(f.deadLetter().getKey()).hasSize(DeadLetterFit.MAX_TEXT_CHARS);
    assertThat(f.deadLetter().getReason()).contains(DeadLetterFit.TRUNCATED_MARK);
    assertThat(DeadLetterFit.encodedSize(f.deadLetter())).isLessThan(20_000);
  }
}
