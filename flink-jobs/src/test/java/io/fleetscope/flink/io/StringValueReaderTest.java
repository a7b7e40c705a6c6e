package io.fleetscope.flink.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.StringValue;
import org.junit.jupiter.api.Test;

class StringValueReaderTest {
  @Test
  void readsWhatFlinksStringValueWrites() throws Exception {
    char[] longChars = new char[20_000];
    Arrays.fill(longChars, 'x');
    List<String> values = new ArrayList<>(Arrays.asList("", "node-0001", "rack-07", null, "nœud", "\u6f22\u5b57", "\ud83d\ude80 rocket",
        "a".repeat(64), "b".repeat(65), new String(longChars), "\u0000\u007f\u0080\u07ff\u0800\uffff"));
    DataOutputSerializer out = new DataOutputSerializer(64);
    for (String v : values) {
      StringValue.writeString(v, out);
    }
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    StringValueReader reader = new StringValueReader();
    for (String v : values) {
      assertThat(reader.read(in)).isEqualTo(v);
    }
    assertThat(in.available()).isZero();
  }

  @Test
  void repeatedShortValuesAreOneInstanceAndCollisionsStayCorrect() throws Exception {
    DataOutputSerializer out = new DataOutputSerializer(64);
    int n = 50_000; // more distinct values than slots: slots are shared and replaced
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < n; i++) {
        StringValue.writeString("node-" + i, out);
      }
    }
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
    StringValueReader reader = new StringValueReader();
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < n; i++) {
        assertThat(reader.read(in)).isEqualTo("node-" + i);
      }
    }
    out.clear();
    StringValue.writeString("rack-1", out);
    StringValue.writeString("rack-1", out);
    in = new DataInputDeserializer(out.getCopyOfBuffer());
    assertThat(reader.read(in)).isSameAs(reader.read(in));
  }
}
