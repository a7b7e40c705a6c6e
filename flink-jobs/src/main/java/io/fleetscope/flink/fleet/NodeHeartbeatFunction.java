package io.fleetscope.flink.fleet;

import io.fleetscope.flink.core.WholeNodeAnalytic;
import io.fleetscope.flink.io.Records;
import java.io.Serializable;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * {@link HeartbeatFunction} for a node stream (fleet.gpu.v1, fleet.ib.v1) inside its node stage:
 * one heartbeat per node and tick in which the node sent anything on the stream, carrying the
 * newest record time, for {@link StalenessFunction}.
 */
public final class NodeHeartbeatFunction<T extends SpecificRecord> extends WholeNodeAnalytic<T, FleetInput, Serializable> {
  private static final long serialVersionUID = 1L;
  private final String stream;

  public NodeHeartbeatFunction(String topic, Class<T> type, String stream, FleetHygieneSettings cfg) {
    super(topic, cfg.tickMs(), TypeInformation.of(FleetInput.class), Set.of(type));
    this.stream = stream;
  }

  @Override
  public String name() {
    return HeartbeatFunction.class.getSimpleName();
  }

  @Override
  protected void onTick(UnitTick<String, FleetInput> tick, List<T> records, UnitState<Serializable> state) {
    if (records.isEmpty()) {
      return;
    }
    T last = records.get(records.size() - 1);
    FleetInput f = new FleetInput();
    f.cluster = Records.cluster(last);
    f.ts = Records.ts(last);
    f.stream = stream;
    f.source = Records.nodeOrDevice(last);
    f.isNode = true;
    f.rack = tick.topology().rackOf(f.source).orElse(null);
    tick.emit(f);
  }
}
