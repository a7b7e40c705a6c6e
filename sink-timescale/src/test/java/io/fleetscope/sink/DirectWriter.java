package io.fleetscope.sink;

import io.fleetscope.sink.write.BatchWriter;
import io.fleetscope.sink.write.SinkRecord;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** Writes records with the sink's own writer (no broker), for tests of what happens in the database. */
final class DirectWriter {
  private DirectWriter() {}

  static BatchWriter.Result write(Connection c, String topic, List<? extends SpecificRecord> records) throws SQLException {
    List<SinkRecord> batch = new ArrayList<>();
    long offset = 0;
    for (SpecificRecord r : records) {
      batch.add(new SinkRecord(topic, 0, offset++, null, null, r));
    }
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      BatchWriter.Result res = new BatchWriter().write(c, batch);
      c.commit();
      return res;
    } finally {
      c.setAutoCommit(auto);
    }
  }
}
