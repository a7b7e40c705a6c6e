package io.fleetscope.streams.jobs;

import io.fleetscope.avro.CheckpointEvent;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Fills the global store {@value #STORE} from fleet.ckpt.v1: per job ({@code cluster|job}) the time
 * its latest completed checkpoint finished. Started and failed checkpoints leave it as it is; a
 * completion older than the one kept (a late or replayed record) too. Kafka Streams runs this same
 * processor when it rebuilds the store from the topic at start.
 */
public final class LastCheckpointProcessor implements Processor<String, CheckpointEvent, Void, Void> {
  public static final String STORE = "job-last-checkpoint";
  static final String COMPLETED = "completed";

  private KeyValueStore<String, Long> store;

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    store = context.getStateStore(STORE);
  }

  @Override
  public void process(Record<String, CheckpointEvent> record) {
    CheckpointEvent e = record.value();
    if (e == null || !COMPLETED.equals(e.getStatus()) || e.getFinishedTs() == null) {
      return;
    }
    String key = CheckpointLookup.key(e.getCluster(), e.getJob());
    Long kept = store.get(key);
    if (kept == null || e.getFinishedTs() > kept) {
      store.put(key, e.getFinishedTs());
    }
  }
}
