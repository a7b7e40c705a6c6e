package io.fleetscope.flink.fleet;

import io.fleetscope.flink.core.KeyedAnalyticFunction;
import io.fleetscope.flink.core.WholeNodeAnalytic;
import io.fleetscope.flink.io.Records;
import java.io.Serializable;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * One heartbeat per source (a node or a device on one stream) and tick in which the source sent
 * anything, carrying the newest record time, for {@link StalenessFunction}. It runs in the node
 * stages of fleet.gpu.v1 and fleet.ib.v1, and keyed by device in an operator of its own
 * ({@link KeyedAnalyticFunction}) on fleet.pdu.v1 and fleet.coolant.v1.
 */
public final class HeartbeatFunction<T extends SpecificRecord> extends WholeNodeAnalytic<T, FleetInput, Serializable> {
  private static final long serialVersionUID = 1L;
  private final String stream;
  private final boolean isNode;

  /**
   * @param stream gpu, ib, pdu or coolant (label {@code stream} of TelemetryStale)
   * @param isNode whether the sources are nodes (labelled {@code node}, with their rack) or devices
   */
  public HeartbeatFunction(String topic, Class<T> type, String stream, boolean isNode, FleetHygieneSettings cfg) {
    super(topic, cfg.tickMs(), TypeInformation.of(FleetInput.class), Set.of(type));
    this.stream = stream;
    this.isNode = isNode;
  }

  /** gpu, ib, pdu or coolant. */
  public String stream() {
    return stream;
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
    f.isNode = isNode;
    f.rack = isNode ? tick.topology().rackOf(f.source).orElse(null) : null;
    tick.emit(f);
  }
}
