package io.fleetscope.flink.io;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/** Collects every output record in the client: analyze and tests. */
public final class CollectedOutput implements OutputSink {
  private CloseableIterator<SpecificRecord> it;

  @Override
  public void attach(DataStream<SpecificRecord> outputs) {
    it = outputs.collectAsync();
  }

  /** Runs the job to its end and returns everything it produced (in arrival order). */
  public List<SpecificRecord> run(StreamExecutionEnvironment env, String jobName) throws Exception {
    if (it == null) {
      throw new IllegalStateException("attach() first");
    }
    JobClient client = env.executeAsync(jobName);
    List<SpecificRecord> out = new ArrayList<>();
    try (CloseableIterator<SpecificRecord> i = it) {
      while (i.hasNext()) {
        out.add(i.next());
      }
    }
    client.getJobExecutionResult().get();
    return out;
  }
}
