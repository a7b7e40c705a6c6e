package io.fleetscope.flink.fleet;

import io.fleetscope.flink.core.PipelineConfig;
import io.fleetscope.flink.io.Records;
import io.fleetscope.flink.core.TickedKeyedFunction;
import io.fleetscope.flink.io.WallClock;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Keyed by source (a node or a device on one stream): one heartbeat per tick in which the source
 * sent anything, carrying the newest record time, for {@link StalenessFunction}.
 */
public final class HeartbeatFunction<T extends SpecificRecord> extends TickedKeyedFunction<T, FleetInput> {
  private static final long serialVersionUID = 1L;
  private final String stream;
  private final boolean isNode;

  public HeartbeatFunction(String topic, Class<T> type, String stream, boolean isNode, FleetHygieneSettings cfg,
      PipelineConfig pipeline, WallClock clock) {
    super(topic, type, cfg.tickMs(), pipeline, clock);
    this.stream = stream;
    this.isNode = isNode;
  }

  public static String keyOf(SpecificRecord r) {
    return Records.cluster(r) + "|" + Records.nodeOrDevice(r);
  }

  @Override
  protected void onTick(Tick<FleetInput> tick, List<T> records) {
    if (records.isEmpty()) {
      return;
    }
    T last = records.get(records.size() - 1);
    FleetInput f = new FleetInput();
    f.cluster = Records.cluster(last);
    f.ts = Records.ts(last);
    f.stream = stream;
    f.source = Records.nodeOrDevice(last);
    f.isNode = isNode;
    f.rack = isNode ? tick.topology().rackOf(f.source).orElse(null) : null;
    tick.emit(f);
  }
}
