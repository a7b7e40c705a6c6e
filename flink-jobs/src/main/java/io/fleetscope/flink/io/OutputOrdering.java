package io.fleetscope.flink.io;

import io.fleetscope.schemas.JsonLines;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** Deterministic order of output lines: by topic, event time, key, then the JSON text. */
public final class OutputOrdering {
  private OutputOrdering() {}

  public static List<JsonLines.Line> lines(List<? extends SpecificRecord> records) {
    List<JsonLines.Line> out = new ArrayList<>(records.size());
    for (SpecificRecord r : records) {
      out.add(new JsonLines.Line(OutputRouting.topicOf(r), OutputRouting.keyOf(r), r));
    }
    List<JsonLines.Line> sorted = new ArrayList<>(out);
    sorted.sort(Comparator.comparing(JsonLines.Line::topic)
        .thenComparingLong(l -> tsOf(l.value()))
        .thenComparing(l -> l.key() == null ? "" : l.key())
        .thenComparing(JsonLines::toJson));
    return sorted;
  }

  private static long tsOf(SpecificRecord r) {
    org.apache.avro.Schema.Field f = r.getSchema().getField("ts");
    return f == null ? 0L : (Long) r.get(f.pos());
  }
}
