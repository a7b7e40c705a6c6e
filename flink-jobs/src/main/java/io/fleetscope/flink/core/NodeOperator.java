package io.fleetscope.flink.core;

import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import org.apache.flink.streaming.api.watermark.Watermark;

/**
 * The node operator of a live run: Flink's keyed-broadcast operator around a {@link NodeFunction},
 * whose output watermark waits for the nodes that wait for or catch up on their backlog
 * ({@link NodeFunction#watermarkHold}). Its timers still follow the input watermark; only what it
 * forwards is held, so the second stages (rails, peers, racks, the fleet) evaluate a tick after a
 * caught-up node's output of that tick, not before. A bounded run's last watermark passes at once.
 */
public final class NodeOperator extends CoBroadcastWithKeyedOperator<String, SpecificRecord, SpecificRecord, Void> {
  private static final long serialVersionUID = 1L;
  private transient long emitted;

  public NodeOperator(NodeFunction fn) {
    super(fn, List.of(Topology.INVENTORY, Topology.JOBS));
  }

  @Override
  public void open() throws Exception {
    super.open();
    emitted = Long.MIN_VALUE;
  }

  @Override
  public void processWatermark(Watermark mark) throws Exception {
    if (timeServiceManager != null) {
      timeServiceManager.advanceWatermark(mark); // fires the timers: what they emit goes before the watermark
    }
    long to = mark.getTimestamp() == Long.MAX_VALUE ? Long.MAX_VALUE
        : Math.min(mark.getTimestamp(), ((NodeFunction) userFunction).watermarkHold());
    if (to > emitted) {
      emitted = to;
      output.emitWatermark(new Watermark(to));
    }
  }
}
